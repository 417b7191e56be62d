import { expect, test } from '@playwright/test';

// Issue 5: the landing page on a phone.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('phone: mobile menu, #pricing anchor, Monthly/Annual toggle, fee FAQ, Get Started', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Automate Your Client Referrals With AI' })).toBeVisible();

  // The desktop navigation is hidden; the menu toggle opens the mobile menu.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu).toBeVisible();

  // An anchor scrolls to #pricing and closes the menu.
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/#pricing$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('heading', { name: 'Simple, transparent pricing' })).toBeInViewport();

  // Monthly → Annual: Growth $19 → $16, 'Save 16%' shown.
  const growth = page.getByTestId('price-Growth');
  await expect(growth).toHaveText(/\$19/);
  await expect(page.getByText('Save 16%')).toBeVisible();
  await page.getByRole('button', { name: 'Annual' }).click();
  await expect(growth).toHaveText(/\$16/);
  await expect(page.getByTestId('price-Scale')).toHaveText(/\$40/);
  await expect(page.getByText('Save 16%')).toBeVisible();

  // The fee FAQ opens the worked example.
  const example = page.getByText(
    /a 20% vendor fee on a \$10,000 deal is \$2,000; on Growth you keep \$1,600 and the product gets \$400/,
  );
  await expect(example).toBeHidden();
  await page.getByText('How does the product fee work?').click();
  await expect(example).toBeVisible();

  // Escape closes the menu and gives focus back to the toggle.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();

  // Get Started (mobile menu) goes to /signup.
  await toggle.click();
  await menu.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('button', { name: 'Register' })).toBeVisible();
});

test("the landing page's scripts and styles reach the browser compressed (the build's brotli copies)", async ({
  page,
}) => {
  const assets: Array<{ url: string; encoding: string | undefined; sent: number; size: number }> = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (!/\/assets\/[^/]+\.(?:js|css)$/.test(new URL(response.url()).pathname)) return;
    pending.push(
      (async () => {
        const [headers, sizes, body] = await Promise.all([
          response.allHeaders(),
          response.request().sizes(),
          response.body(),
        ]);
        assets.push({
          url: response.url(),
          encoding: headers['content-encoding'],
          sent: sizes.responseBodySize,
          size: body.length,
        });
      })(),
    );
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Automate Your Client Referrals With AI' })).toBeVisible();
  await Promise.all(pending);

  const large = assets.filter((asset) => asset.size >= 1024);
  expect(large.length).toBeGreaterThanOrEqual(3); // the entry, the landing chunk, the styles
  for (const asset of large) {
    expect(asset.encoding, asset.url).toBe('br');
    expect(asset.sent, asset.url).toBeLessThan(asset.size / 2);
  }
  // What the visitor downloads for the page's JavaScript, against the 80 KB (gzip) budget.
  const scripts = assets.filter((asset) => asset.url.endsWith('.js'));
  expect(scripts.reduce((sum, asset) => sum + asset.sent, 0)).toBeLessThan(80 * 1024);
});
