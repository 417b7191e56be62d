import { expect, test } from '@playwright/test';
import { uniqueEmail as unique, verificationLink, waitForEmail } from './support.ts';

test('sign up, verify the email, sign out and sign in again', async ({ page }) => {
  const email = unique('ada');
  await page.goto('/signup');
  await expect(page.getByText('Create an Account')).toBeVisible();

  // Validation from the shared contracts, on submit.
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();

  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Company Name').fill('Engines Ltd');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Register' }).click();

  // No session yet: the emailed link signs in.
  await expect(page.getByText('Account Created', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(`We sent a verification link to ${email}.`, { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);

  // The email really left through SMTP, to the server this test runs, with the link to this app.
  const link = await verificationLink(email);
  await page.goto(link);
  await expect(page.getByText('Email Verified', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 5000 });
  await expect(page.getByText('Set Up Your Profile', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toHaveCount(0);

  // Account menu: avatar letter, email, role label, log out.
  const avatar = page.getByRole('button', { name: /account menu/i });
  await expect(avatar).toHaveText('A');
  await avatar.click();
  await expect(page.getByRole('menu')).toContainText(email);
  await expect(page.getByRole('menu')).toContainText('User');
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Logged in successfully', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What do you want to refer?' })).toBeVisible();

  // A signed-in user sent to /login lands on /.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('an unverified login is sent to resend the verification link', async ({ page, browser }) => {
  const email = unique('grace');
  await page.goto('/signup');
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Last Name').fill('Hopper');
  await page.getByLabel('Company Name').fill('Navy');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('pw');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  const fresh = await browser.newPage();
  await fresh.goto('/login');
  await fresh.getByLabel('Email').fill(email);
  await fresh.getByLabel('Password').fill('pw');
  await fresh.getByRole('button', { name: 'Login' }).click();
  await expect(fresh.getByText('Email Not Verified', { exact: true })).toBeVisible();
  await expect(fresh).toHaveURL(/\/resend-verification$/);

  await fresh.getByRole('button', { name: /send/i }).click();
  await expect(fresh.getByRole('link', { name: 'Return to Login' })).toBeVisible();
  // Issue 12: the toast that sent the user here is gone once the link is on its way.
  await expect(fresh.getByText('Email Not Verified', { exact: true })).toHaveCount(0);
});

test('a broken verification link explains itself', async ({ page }) => {
  await page.goto('/verify-email?token=nope');
  await expect(page.getByText('Invalid verification link. Missing token or user ID.')).toBeVisible();
  await page.goto('/verify-email?token=nope&userId=00000000-0000-0000-0000-000000000000');
  await expect(page.getByText('Verification Failed')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
});

test('signing up with a taken address looks the same, and the owner is told by email', async ({ page, browser }) => {
  const email = unique('taken');
  const signUp = async (p: typeof page, firstName: string) => {
    await p.goto('/signup');
    await p.getByLabel('First Name').fill(firstName);
    await p.getByLabel('Last Name').fill('Owner');
    await p.getByLabel('Company Name').fill('Owned Ltd');
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill('first password');
    await p.getByRole('button', { name: 'Register' }).click();
    await expect(p.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  };
  await signUp(page, 'Olivia');
  await verificationLink(email);

  const intruder = await browser.newPage();
  await signUp(intruder, 'Mallory');
  const notice = await waitForEmail(
    (m) => m.to.includes(email) && /Someone tried to create/.test(m.subject),
    `sign-up attempt notice for ${email}`,
  );
  expect(notice.text).toContain('Hi Olivia');
  expect(notice.text).toContain('/login');
});
