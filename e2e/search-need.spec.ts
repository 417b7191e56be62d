import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, signUpVerified, uniqueEmail } from './support.ts';

// Issue 12: a need typed on the home screen gets a fitting product and alternatives to pick instead; "Not found"
// can never be referred. Desktop and a 360 px phone, axe clean, no sideways scrolling.

const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

async function search(page: Page, query: string) {
  await page.getByPlaceholder('Refer Anything..').fill(query);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('region', { name: 'Selected Product' })).toBeVisible();
}

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 360, height: 780 }],
] as const) {
  test(`a need finds a fitting product with alternatives; Not found cannot be referred (${label})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await signUpVerified(page, {
      firstName: 'Nadia',
      lastName: 'Needs',
      company: 'Needs & Co',
      email: uniqueEmail(`needs-${label}`),
      password: 'a long passphrase',
    });
    await page.goto('/');

    await search(page, 'CRM for a 10-person sales team');
    const card = page.getByRole('region', { name: 'Selected Product' });
    await expect(card).not.toContainText('Microsoft Teams');
    const choices = page.getByRole('region', { name: 'Or refer one of these instead' });
    const buttons = choices.getByRole('button');
    await expect(buttons).toHaveCount(3);
    await page.screenshot({ path: testInfo.outputPath(`need-${label}.png`), fullPage: true });
    await expectNoAxeViolations(page, `need (${label})`);
    expect(await scrollsSideways(page)).toBe(false);

    // Choosing an alternative makes it the card; Yes refers it.
    const chosen = (await buttons.first().locator('span').first().textContent())!;
    await buttons.first().click();
    await expect(card.getByText(chosen, { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expect(page).toHaveURL(/\/submit-referral$/);
    await expect(
      page.getByRole('region', { name: 'Selected Product' }).getByText(chosen, { exact: true }).first(),
    ).toBeVisible();

    await page.goto('/');
    await search(page, 'qwertyuiop asdfgh');
    const yes = page.getByRole('button', { name: 'Yes' });
    await expect(yes).toBeDisabled();
    await expect(page.getByText('Try a product name, a website, or Smart Match')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Smart Match' })).toHaveAttribute('href', '/discover');
    await page.screenshot({ path: testInfo.outputPath(`not-found-${label}.png`), fullPage: true });
    await expectNoAxeViolations(page, `not found (${label})`);
    expect(await scrollsSideways(page)).toBe(false);
  });
}
