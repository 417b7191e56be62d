import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { createVerifiedWorkspace, describeClient, signUpVerified, uniqueEmail, waitForEmail } from './support.ts';

test('a Closed-Won confirmed by the vendor pays its bounty; the referrer sees it on Impact and downloads the CSV', async ({
  browser,
}) => {
  test.setTimeout(150_000);

  // The vendor behind the product the referrer will find: HubSpot, verified by an address on hubspot.com.
  const vendor = await (await browser.newContext()).newPage();
  await signUpVerified(vendor, {
    firstName: 'Sam',
    lastName: 'Seller',
    company: 'HubSpot',
    email: `sam-${Date.now().toString(36)}@hubspot.com`,
    password: 'vendor passphrase',
  });
  await createVerifiedWorkspace(vendor, { name: 'HubSpot', website: 'hubspot.com' });
  await vendor.goto('/onboarding/bounties');
  await vendor.getByRole('group', { name: 'Closed-Won' }).getByLabel('Amount (USD)').fill('1000');
  await vendor.getByRole('button', { name: 'Save Bounties' }).click();
  await expect(vendor.getByText('Bounties Saved', { exact: true })).toBeVisible();

  // The referrer refers a client to HubSpot: routed to its workspace.
  const page = await (await browser.newContext()).newPage();
  const client = { firstName: 'Dana', lastName: 'Deal' };
  await signUpVerified(page, {
    firstName: 'Erin',
    lastName: 'Earner',
    company: 'Earner Partners',
    email: uniqueEmail('erin'),
    password: 'referrer passphrase',
  });
  await page.goto('/');
  await page.getByPlaceholder('Refer Anything..').fill('hubspot');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await page.getByLabel('First name').fill(client.firstName);
  await page.getByLabel('Last name').fill(client.lastName);
  await page.getByLabel('Email').fill(uniqueEmail('dana'));
  await page.getByLabel('Why is this referral a good fit?').fill('Needs a CRM for 200 people.');
  await describeClient(page, { name: 'Deal Industries', size: '201-500', country: 'United States' });
  await expect(page.getByText("Routed to HubSpot's lead inbox")).toBeVisible();
  await page.getByRole('button', { name: 'Submit Referral' }).click();
  await expect(page.getByText('Referral submitted successfully', { exact: true })).toBeVisible();

  // The referrer marks Closed-Won in Tee ups: their own tracking, which earns nothing yet.
  await page.goto('/dashboard');
  await page.getByRole('row', { name: new RegExp(`${client.firstName} ${client.lastName}`) }).click();
  const sheet = page.getByRole('dialog', { name: new RegExp(`${client.firstName} ${client.lastName}`) });
  await sheet.getByRole('button', { name: 'Closed-Won', exact: true }).click();
  await expect(page.getByText('Status Updated', { exact: true })).toBeVisible();
  await page.goto('/referral-impact');
  await expect(page.getByTestId('impact-escrow')).toContainText(/\$0(\.00)?(?!\d)/);

  // HubSpot confirms Closed-Won in its lead inbox, with the deal's value: the commission is earned.
  await vendor.goto('/vendor/leads');
  const lead = vendor.getByRole('article', { name: 'Deal Industries' });
  await lead.getByRole('button', { name: 'Confirm Closed-Won' }).click();
  const confirm = vendor.getByRole('form', { name: 'Confirm Closed-Won' });
  await confirm.getByLabel(/Deal value/).fill('24000');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(lead.getByRole('list', { name: /Commissions of/ })).toContainText('$1,000.00');

  // Impact: the flat $1,000 bounty, of which the referrer keeps 70% on Starter.
  await page.goto('/referral-impact');
  await expect(page.getByText('$700').first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  expect(csv.split(/\r?\n/)[0]).toMatch(/partner/i);
  expect(csv).toContain(`${client.firstName} ${client.lastName}`);
  expect(csv).toMatch(/1000(\.00)?/);
  expect(csv).toMatch(/700(\.00)?/);
});

test('a visitor on a phone asks for a demo, and the sales team is told by email', async ({ browser }) => {
  const page = await (
    await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  ).newPage();
  const email = uniqueEmail('prospect');
  await page.goto('/demo-request');
  await page.getByRole('button', { name: 'Request Demo' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Phone number is required')).toBeVisible();
  await page.getByLabel('First Name').fill('Pat');
  await page.getByLabel('Last Name').fill('Prospect');
  await page.getByLabel('Work Email').fill(email);
  await page.getByLabel('Phone Number').fill('+1 555 0100');
  await page.getByLabel('Company Website').fill('https://prospect.example');
  await page.getByRole('button', { name: 'Request Demo' }).click();
  await expect(page.getByText('Thanks for Your Interest')).toBeVisible();
  const notice = await waitForEmail((m) => m.text.includes(email), 'the demo request email to sales');
  expect(notice.to).toContain('sales@referralhub.local');
  expect(notice.replyTo).toBe(email);
});
