import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { describeClient, expectNoAxeViolations, uniqueEmail, verificationLink, waitForEmail } from './support.ts';

/**
 * Issue 12: a new referrer's whole journey, as a person walks it, on a desktop and on a phone: sign up,
 * verify, say what they came for, search, refer, the submitted screen's steps (each waits for them), the
 * draft, send, Tee ups and Impact; then a signed-out visit to a signed-in screen returns there after login.
 * Every step leaves a full-page screenshot attached to the test's results.
 */
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const size of SIZES) {
  test.describe(`the journey on a ${size.name} (${size.width}x${size.height})`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('sign up, choose, refer, wait on each step, send, follow it', async ({ page }, testInfo) => {
      test.setTimeout(150_000);
      const snap = (name: string) => screenshot(page, testInfo, `${size.name}-${name}`);
      const person = {
        firstName: 'Rosa',
        lastName: 'Referrer',
        company: 'Harbor Advisors',
        email: uniqueEmail(`rosa-${size.name}`),
        password: 'a long passphrase',
      };
      const client = { firstName: 'Cleo', lastName: 'Client', email: uniqueEmail('cleo') };

      // A signed-out visitor of a signed-in screen is sent to log in.
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
      await expect(page.getByText('Login to Your Account')).toBeVisible();

      // Sign up: no session yet, the emailed link signs in.
      await page.goto('/signup');
      await page.getByLabel('First Name').fill(person.firstName);
      await page.getByLabel('Last Name').fill(person.lastName);
      await page.getByLabel('Company Name').fill(person.company);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await snap('01-sign-up');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
      await snap('02-check-your-email');

      await page.goto(await verificationLink(person.email));
      await expect(page.getByText('Email Verified', { exact: true })).toBeVisible();

      // The first choice; it is stored with the user and survives a reload.
      await expect(page).toHaveURL(/\/onboarding$/, { timeout: 5000 });
      await expect(page.getByRole('heading', { name: 'How will you use Referral Hub?' })).toBeVisible();
      await page.reload();
      await expect(page.getByRole('heading', { name: 'How will you use Referral Hub?' })).toBeVisible();
      await snap('03-choose');
      await expectNoAxeViolations(page, 'onboarding choice');
      await page.getByRole('button', { name: /I refer clients/ }).click();

      // Search: a need typed by name finds the product.
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'What do you want to refer?' })).toBeVisible();
      await page.getByPlaceholder('Refer Anything..').fill('slack');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByText("Is this the product you're referring to?")).toBeVisible();
      await snap('04-search-result');
      await page.getByRole('button', { name: 'Yes' }).click();

      // The referral form.
      await expect(page).toHaveURL(/\/submit-referral$/);
      await page.getByLabel('First name').fill(client.firstName);
      await page.getByLabel('Last name').fill(client.lastName);
      await page.getByLabel('Email').fill(client.email);
      await page
        .getByLabel('Why is this referral a good fit?')
        .fill('Their team of 40 is drowning in email threads and needs a shared chat tool.');
      await describeClient(page, { name: 'Cleo & Co', size: '11-50', country: 'Canada' });
      await expect(page.getByText(/is not on Referral Hub yet/)).toBeVisible();
      await snap('05-referral-form');
      await page.getByRole('button', { name: 'Submit Referral' }).click();

      // Submitted: the 'Thanks' modal (Slack has no program here) stays until Close.
      const thanks = page.getByRole('dialog', { name: 'Thanks for Your Referral!' });
      await expect(thanks).toBeVisible();
      await expect(page.getByText('Referral Successfully Submitted!')).toBeVisible();
      await snap('06-thanks');
      await page.waitForTimeout(4_000);
      await expect(thanks).toBeVisible();
      await expect(page).toHaveURL(/\/referral\/\d+$/);
      await thanks.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page).toHaveURL(/\/referral\/\d+$/);

      // The draft is prepared; the screen waits for the referrer to open it.
      const review = page.getByRole('link', { name: 'Review Intro Email' });
      await expect(review).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Your intro email draft is ready.')).toBeVisible();
      await snap('07-submitted-draft-ready');
      await expectNoAxeViolations(page, 'submitted screen');
      await page.waitForTimeout(2_000);
      await expect(page).toHaveURL(/\/referral\/\d+$/);
      await review.click();

      // The draft, then send.
      await expect(page).toHaveURL(/\/referral\/\d+\/email-draft$/);
      const subject = page.getByLabel('Subject');
      await expect(subject).not.toHaveValue('');
      await expect(page.getByLabel('To')).toHaveValue(client.email);
      await subject.fill(`${client.firstName}, meet Slack (${size.name})`);
      await snap('08-draft');
      await page.getByRole('button', { name: 'Send Email' }).click();
      await expect(page.getByText('Email Sent!')).toBeVisible();
      await snap('09-sent');
      const intro = await waitForEmail(
        (m) => m.subject === `${client.firstName}, meet Slack (${size.name})`,
        'the intro email',
      );
      expect(intro.to).toContain(client.email);

      // Tee ups lists it.
      await page.goto('/dashboard');
      await expect(page.getByText(`Welcome, ${person.firstName}`, { exact: true })).toBeVisible();
      await expect(page.getByText(`${client.firstName} ${client.lastName}`).first()).toBeVisible();
      await snap('10-tee-ups');

      // Impact: real figures only (no static badge).
      await page.goto('/referral-impact');
      await expect(page.getByRole('heading', { name: 'Referral Impact Dashboard' })).toBeVisible();
      await expect(page.getByText('Gold Referrer')).toHaveCount(0);
      await expect(page.getByText(/NPS 8\.7/)).toHaveCount(0);
      await snap('11-impact');

      // An unknown address says so, with the way home.
      await page.goto('/no-such-screen');
      await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
      await snap('12-not-found');
      await expectNoAxeViolations(page, 'not found');
      await page.getByRole('link', { name: 'Go to Home' }).click();
      await expect(page).toHaveURL(/\/$/);

      // Signed out, a signed-in screen sends to login, and login returns there.
      await page.context().clearCookies();
      await page.goto('/referral-impact');
      await expect(page).toHaveURL(/\/login\?next=%2Freferral-impact$/);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Login' }).click();
      const password = page.getByLabel('Password');
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      await expect(password).toHaveAccessibleDescription('Invalid email or password');
      await snap('13-login-wrong-password');
      await password.fill(person.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page).toHaveURL(/\/referral-impact$/);
    });
  });
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
