import { expect, test, type Page } from '@playwright/test';
import { possessive } from '@app/domain';
import {
  addLinkedProgram,
  createVerifiedWorkspace,
  describeClient,
  referFromSmartMatch,
  snap,
  uniqueEmail,
  userPage,
} from './support.ts';

/**
 * An administrator revokes a workspace's verification (a wrong approval, a domain that changed hands): the
 * referrer's next referral is no longer routed to it, and its members see why it is not verified, without the
 * ways to verify it by its domain.
 */

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const DOMAIN = `revoked-${RUN}.test`;
const VENDOR = `Revokia ${RUN}`;
const PROGRAM = `${VENDOR} Partner Program`;
const NEED = 'Warehouse robots that pick and pack e-commerce orders';

async function referClient(referrer: Page) {
  await referFromSmartMatch(referrer, NEED, PROGRAM);
  await referrer.getByLabel('First name').fill('Pia');
  await referrer.getByLabel('Last name').fill('Picker');
  await referrer.getByLabel('Email').fill(uniqueEmail('pia'));
  await referrer.getByLabel('Why is this referral a good fit?').fill('They pack 5,000 orders a day by hand.');
  await describeClient(referrer, { name: 'Picker Parcels Ltd', size: '51-200', country: 'Ireland' });
}

test("an administrator revokes a workspace's verification: no more leads reach it, its members are told", async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const vendor = await userPage(browser, {
    firstName: 'Rex',
    lastName: 'Vendor',
    company: VENDOR,
    email: `rex@${DOMAIN}`,
    password: 'vendor passphrase',
  });
  await createVerifiedWorkspace(vendor, { name: VENDOR, website: DOMAIN });
  const admin = await userPage(browser, {
    firstName: 'Ada',
    lastName: 'Admin',
    company: 'Referral Hub',
    email: 'admin-revoke@e2e.test',
    password: 'admin passphrase',
  });
  await addLinkedProgram(admin, {
    name: PROGRAM,
    workspace: `${VENDOR} (${DOMAIN})`,
    description: `${VENDOR} builds ${NEED.toLowerCase()}.`,
    website: `https://${DOMAIN}/partners`,
    reward: 'Earn $1,000 for every referred customer.',
  });

  // Verified: the referral form says the lead goes to the vendor's inbox.
  const referrer = await userPage(browser, {
    firstName: 'Rob',
    lastName: 'Referrer',
    company: 'Bright Consulting',
    email: uniqueEmail('rob'),
    password: 'referrer passphrase',
  });
  await referClient(referrer);
  await expect(referrer.getByText(`Routed to ${possessive(VENDOR)} lead inbox`)).toBeVisible();

  // The administrator revokes it, with a note.
  await admin.goto('/admin');
  await admin.getByRole('tab', { name: /Vendors/ }).click();
  const workspaces = admin.getByRole('region', { name: 'Vendor workspaces' });
  await workspaces.getByRole('button', { name: `Revoke the verification of ${VENDOR}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Revoke the verification of ${VENDOR}?` });
  await dialog.getByRole('button', { name: 'Revoke verification' }).click();
  await expect(dialog.getByText('Please say why you revoke its verification')).toBeVisible();
  await dialog.getByLabel('Why do you revoke it?').fill('Approved by mistake: the domain belongs to another company.');
  await dialog.getByRole('button', { name: 'Revoke verification' }).click();
  await expect(admin.getByText(`${VENDOR} is no longer verified.`, { exact: true })).toBeVisible();
  const row = workspaces.getByRole('row', { name: new RegExp(VENDOR) });
  await expect(row).toContainText('Verification revoked');
  await expect(row.getByRole('button', { name: `Approve ${VENDOR}` })).toBeVisible();
  await snap(admin, testInfo, 'admin-revoked');

  // Its member sees why, and no way to verify it by the domain.
  await vendor.goto('/vendor');
  const panel = vendor.getByRole('region', { name: 'Verification revoked' });
  await expect(panel).toContainText(`A Referral Hub administrator revoked the verification of ${VENDOR}`);
  await expect(vendor.getByRole('button', { name: 'Check again' })).toHaveCount(0);
  await snap(vendor, testInfo, 'vendor-revoked');

  // The next referral is not routed to it (the services learn it from vendor.saved, a moment later).
  await expect(async () => {
    await referClient(referrer);
    await expect(referrer.getByText(`${VENDOR} is not on Referral Hub yet`, { exact: false })).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(referrer.getByText(`Routed to ${possessive(VENDOR)} lead inbox`)).toHaveCount(0);
});
