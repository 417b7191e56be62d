import { expect, test, type Browser, type Page } from '@playwright/test';
import { possessive } from '@app/domain';
import { createVerifiedWorkspace, describeClient, signUpVerified, uniqueEmail } from './support.ts';

const RUN = Date.now().toString(36);
const VENDOR_COMPANY = `Acme Analytics ${RUN}`;
const VENDOR_DOMAIN = `acme-analytics-${RUN}.test`;
const PROGRAM_DOCUMENT = `${VENDOR_COMPANY} Partner Program

${VENDOR_COMPANY} builds sales analytics dashboards and pipeline reporting for B2B revenue teams.

Website: https://${VENDOR_DOMAIN}

Rewards
Earn 20% of the first-year ARR for every referred customer that signs within 90 days.
Payouts are made monthly after the customer's first payment.
`;

async function userPage(browser: Browser, person: Parameters<typeof signUpVerified>[1]): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signUpVerified(page, person);
  return page;
}

test('a vendor sets its ICP and bounties, an admin adds its program from a document, a referrer finds it with Smart Match', async ({
  browser,
}) => {
  test.setTimeout(150_000);

  // The vendor: a workspace verified by its domain, then its lead criteria and bounties.
  const vendor = await userPage(browser, {
    firstName: 'Vera',
    lastName: 'Vendor',
    company: VENDOR_COMPANY,
    email: `vera@${VENDOR_DOMAIN}`,
    password: 'vendor passphrase',
  });
  await createVerifiedWorkspace(vendor, { name: VENDOR_COMPANY, website: VENDOR_DOMAIN });
  await vendor.goto('/onboarding');
  const countries = vendor.getByLabel('Countries');
  await countries.fill('Germany');
  await countries.press('Enter');
  await expect(vendor.getByRole('button', { name: 'Remove Germany' })).toBeVisible();
  await vendor.getByText('51-200', { exact: true }).click();
  await vendor.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(vendor.getByText('Ideal Customer Profile Saved', { exact: true })).toBeVisible();
  // Issue 12: the vendor's next step is its bounties.
  await expect(vendor).toHaveURL(/\/onboarding\/bounties\?vendorId=/);
  const closedWon = vendor.getByRole('group', { name: 'Closed-Won' });
  await closedWon.getByLabel('Amount (USD)').fill('500');
  await expect(vendor.getByText(/You'll pay/)).toContainText('$500');
  await vendor.getByRole('button', { name: 'Save Bounties' }).click();
  await expect(vendor.getByText('Bounties Saved', { exact: true })).toBeVisible();

  // The administrator: upload the program document, review, save.
  const admin = await userPage(browser, {
    firstName: 'Ada',
    lastName: 'Admin',
    company: 'Referral Hub',
    email: 'admin@e2e.test',
    password: 'admin passphrase',
  });
  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { name: 'Referral Program Management' })).toBeVisible();
  await admin
    .getByLabel('Referral program document')
    .setInputFiles({ name: 'acme-program.txt', mimeType: 'text/plain', buffer: Buffer.from(PROGRAM_DOCUMENT) });
  await admin.getByRole('button', { name: 'Analyze Document' }).click();
  await expect(admin.getByText('Document analyzed successfully', { exact: true })).toBeVisible();
  await expect(admin.getByLabel('Program Name').first()).toHaveValue(`${VENDOR_COMPANY} Partner Program`);
  await expect(admin.getByLabel('Reward Details').first()).toHaveValue(
    /Earn 20% of the first-year ARR for every referred customer that signs within 90 days\./,
  );
  // The program's website is on the vendor's verified domain: its workspace is proposed and linked.
  const review = admin.getByRole('tabpanel', { name: /Upload & Analyze Document/ });
  await expect(review.getByText(new RegExp(`linked to the ${VENDOR_COMPANY} workspace`))).toBeVisible();
  await expect(review.getByLabel('Vendor workspace')).toHaveValue(/.+/);
  await review.getByRole('button', { name: 'Save Program' }).click();
  const programs = admin.getByRole('region', { name: 'Existing Referral Programs' });
  await expect(programs).toContainText(`${VENDOR_COMPANY} Partner Program`);
  await expect(programs).toContainText('Active');

  // The referrer: Smart Match finds the program for a client in Germany, and leaves it out for France.
  const referrer = await userPage(browser, {
    firstName: 'Rob',
    lastName: 'Referrer',
    company: 'Bright Consulting',
    email: uniqueEmail('rob'),
    password: 'referrer passphrase',
  });
  await referrer.goto('/discover');
  await referrer
    .getByLabel('What does your client need?')
    .fill('Sales analytics dashboards and pipeline reporting for the revenue team');
  await referrer.getByLabel('Country').fill('France');
  await referrer.getByRole('button', { name: 'Find Matches' }).click();
  const excluded = referrer.getByText(/Excluded \(\d+\)/);
  await expect(excluded).toBeVisible();
  await excluded.click();
  await expect(referrer.getByText(`${VENDOR_COMPANY} Partner Program`).first()).toBeVisible();
  await expect(referrer.getByRole('button', { name: `Refer to ${VENDOR_COMPANY} Partner Program` })).toHaveCount(0);

  await referrer.getByLabel('Country').fill('Germany');
  await referrer.getByRole('button', { name: 'Find Matches' }).click();
  const matches = referrer.getByRole('list', { name: 'Matching programs' });
  await expect(matches).toContainText(`${VENDOR_COMPANY} Partner Program`);
  await expect(matches).toContainText('$500 at Closed-Won');
  await expect(matches).toContainText('70%');

  await referrer.getByRole('button', { name: `Refer to ${VENDOR_COMPANY} Partner Program` }).click();
  const approval = referrer.getByRole('dialog');
  await expect(approval).toContainText('approval');
  await approval.getByRole('button', { name: 'Approve & Continue' }).click();

  // The same referral journey as from the search screen; this vendor has a program, so the dry run shows.
  await expect(referrer).toHaveURL(/\/submit-referral$/);
  await referrer.getByLabel('First name').fill('Greta');
  await referrer.getByLabel('Last name').fill('Gruber');
  await referrer.getByLabel('Email').fill(uniqueEmail('greta'));
  await referrer
    .getByLabel('Why is this referral a good fit?')
    .fill('Their Berlin sales team needs pipeline dashboards.');
  await describeClient(referrer, { name: 'Gruber Logistik GmbH', size: '51-200', country: 'Germany' });
  await expect(referrer.getByText(`Routed to ${possessive(VENDOR_COMPANY)} lead inbox`)).toBeVisible();
  await referrer.getByRole('button', { name: 'Submit Referral' }).click();
  await expect(referrer.getByRole('dialog', { name: 'Automating Referral Form' })).toBeVisible();
  await expect(referrer.getByText('Success: Form filled successfully (mock dry run)')).toBeVisible({ timeout: 20_000 });
});
