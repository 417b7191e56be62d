import { createHmac } from 'node:crypto';
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
  waitForEmail,
} from './support.ts';

/**
 * Issue 10, end to end: the vendor registers two CRM webhook endpoints (one fails once); a referral reaches
 * its lead inbox; the vendor confirms Closed-Won with a deal value and so creates the commission (the
 * referrer cannot); the referrer's Tee ups and Impact show it in escrow; an administrator records the payout
 * and exports it; the referrer sees it paid and is emailed; the CRM received signed deliveries that this
 * test verifies itself, and the failing endpoint got the same delivery again.
 */

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const DOMAIN = `money-${RUN}.test`;
const VENDOR = `Ledgerly ${RUN}`;
const PROGRAM = `${VENDOR} Partner Program`;
const NEED = 'Automated bookkeeping and month-end close for finance teams';
const HOOKS = `https://127.0.0.1:${process.env.E2E_WEBHOOK_PORT}`;
const RECEIVED = `http://127.0.0.1:${process.env.E2E_WEBHOOK_READER_PORT}/deliveries`;

interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  answered: number;
}

/** Registers a webhook endpoint on /vendor and answers the secret shown once. */
async function addEndpoint(vendor: Page, url: string, events: string[]): Promise<string> {
  const webhooks = vendor.getByRole('region', { name: 'Webhooks' });
  const form = webhooks.getByRole('form', { name: 'Add endpoint' });
  await form.getByLabel('Endpoint URL (HTTPS)').fill(url);
  for (const event of ['lead.created', 'lead.status_changed', 'commission.created']) {
    await form.getByLabel(event, { exact: true }).setChecked(events.includes(event));
  }
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = (await webhooks.getByTestId('webhook-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_/);
  await webhooks.getByRole('button', { name: 'Done' }).click();
  return secret;
}

/** Standard Webhooks, checked independently of the app: v1,base64(HMAC-SHA256(key, id.timestamp.body)). */
function verifySignature(delivery: Delivery, secret: string): boolean {
  const id = delivery.headers['webhook-id'];
  const timestamp = delivery.headers['webhook-timestamp'];
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest('base64');
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 600;
  return fresh && (delivery.headers['webhook-signature'] ?? '').split(' ').includes(`v1,${expected}`);
}

async function deliveriesTo(path: string): Promise<Delivery[]> {
  const all = (await (await fetch(RECEIVED)).json()) as Delivery[];
  return all.filter((d) => d.path === path);
}

test('the vendor confirms Closed-Won; the commission is earned, paid out by an administrator, and sent to the CRM signed', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);

  // The vendor: a verified workspace, 10% of first-year ARR at Closed-Won, and two CRM endpoints.
  const vera = {
    firstName: 'Vera',
    lastName: 'Vendor',
    company: VENDOR,
    email: `vera@${DOMAIN}`,
    password: 'vendor passphrase',
  };
  const vendor = await userPage(browser, vera);
  await createVerifiedWorkspace(vendor, { name: VENDOR, website: `https://${DOMAIN}` });
  const okPath = `/ok/${RUN}`;
  const flakyPath = `/flaky/${RUN}`;
  const okSecret = await addEndpoint(vendor, `${HOOKS}${okPath}`, [
    'lead.created',
    'lead.status_changed',
    'commission.created',
  ]);
  const flakySecret = await addEndpoint(vendor, `${HOOKS}${flakyPath}`, ['commission.created']);
  await expect(vendor.getByRole('list', { name: 'Webhook endpoints' }).getByRole('listitem')).toHaveCount(2);

  await vendor.goto('/onboarding/bounties');
  const closedWon = vendor.getByRole('group', { name: 'Closed-Won' });
  await closedWon.getByLabel('Payout type').selectOption('percentage_arr');
  await closedWon.getByLabel('Percentage (%)').fill('10');
  await vendor.getByRole('button', { name: 'Save Bounties' }).click();
  await expect(vendor.getByText('Bounties Saved', { exact: true })).toBeVisible();

  // An administrator links the vendor's program to its workspace.
  const admin = await userPage(browser, {
    firstName: 'Ada',
    lastName: 'Admin',
    company: 'Referral Hub',
    email: 'admin-money@e2e.test',
    password: 'admin passphrase',
  });
  await addLinkedProgram(admin, {
    name: PROGRAM,
    workspace: `${VENDOR} (${DOMAIN})`,
    description: `${VENDOR} does ${NEED.toLowerCase()}.`,
    website: `https://${DOMAIN}/partners`,
    reward: '10% of first-year ARR for every referred customer.',
  });

  // The referrer refers a client to the vendor's lead inbox.
  const rob = {
    firstName: 'Rob',
    lastName: 'Referrer',
    company: 'Bright Consulting',
    email: uniqueEmail('rob'),
    password: 'referrer passphrase',
  };
  const referrer = await userPage(browser, rob);
  await referFromSmartMatch(referrer, NEED, PROGRAM);
  const client = { firstName: 'Nora', lastName: 'Nilsen', email: uniqueEmail('nora') };
  await referrer.getByLabel('First name').fill(client.firstName);
  await referrer.getByLabel('Last name').fill(client.lastName);
  await referrer.getByLabel('Email').fill(client.email);
  await referrer.getByLabel('Why is this referral a good fit?').fill('Their finance team closes the books by hand.');
  await describeClient(referrer, { name: 'Nilsen Freight AS', size: '51-200', country: 'Norway' });
  await expect(referrer.getByText(`Routed to ${possessive(VENDOR)} lead inbox`)).toBeVisible();
  await referrer.getByRole('button', { name: 'Submit Referral' }).click();
  await expect(referrer.getByText('Referral submitted successfully', { exact: true })).toBeVisible();

  // The referrer's own stage move earns nothing: Closed-Won in Tee ups, no commission, the vendor asked.
  await referrer.goto('/dashboard');
  const row = referrer.getByRole('row', { name: new RegExp(`${client.firstName} ${client.lastName}`) });
  await expect(row).toBeVisible();
  await row.click();
  const sheet = referrer.getByRole('dialog', { name: new RegExp(`${client.firstName} ${client.lastName}`) });
  await expect(sheet.getByText('Commissions count once the vendor confirms', { exact: false })).toBeVisible();
  const markClosedWon = sheet.getByRole('button', { name: 'Closed-Won', exact: true });
  await markClosedWon.click();
  await expect(markClosedWon).toHaveAttribute('aria-pressed', 'true');
  const closedWonMilestone = sheet.getByRole('listitem', { name: 'Closed-Won' });
  // The retention bonus cannot be asked for before the vendor can confirm it (after Closed-Won, at its date).
  const retentionMilestone = sheet.getByRole('listitem', { name: 'Retention Bonus' });
  await expect(retentionMilestone).toContainText('After Closed-Won');
  await expect(retentionMilestone.getByRole('button')).toHaveCount(0);
  await closedWonMilestone.getByRole('button', { name: 'Ask the vendor to confirm Closed-Won' }).click();
  const ask = referrer.getByRole('form', { name: 'Ask the vendor to confirm' });
  await ask.getByLabel('Message to the vendor (optional)').fill('I heard they signed last week.');
  await ask.getByRole('button', { name: 'Send request' }).click();
  await expect(closedWonMilestone).toContainText('Confirmation requested');
  await snap(referrer, testInfo, 'referrer-milestones');
  const asked = await waitForEmail(
    (m) => m.to.includes(vera.email) && /confirm/i.test(m.subject) && m.text.includes('I heard they signed'),
    'the confirmation request to the vendor',
  );
  expect(asked.text).toContain('/vendor/leads');
  await sheet.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(row).toContainText('Closed-Won');
  await expect(row).toContainText('TBD');

  // The vendor confirms Closed-Won with a deal value of $50,000: 10% = $5,000 owed, $3,500 the referrer's.
  await vendor.goto('/vendor/leads');
  const lead = vendor.getByRole('article', { name: 'Nilsen Freight AS' });
  await expect(lead).toBeVisible();
  await lead.getByRole('button', { name: 'Confirm Closed-Won' }).click();
  const confirm = vendor.getByRole('form', { name: 'Confirm Closed-Won' });
  await confirm.getByLabel(/Deal value/).fill('50,000');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(lead.getByRole('list', { name: /Commissions of/ })).toContainText('$5,000.00');
  await expect(lead.getByRole('listitem', { name: 'Closed-Won' })).toContainText('Confirmed');
  await snap(vendor, testInfo, 'vendor-confirmed');
  // The reference the vendor can quote to the platform's administrators.
  const leadReference = (await lead.getByText(/^Referral \d+$/).textContent())!;
  await vendor.goto('/vendor');
  await expect(vendor.getByRole('region', { name: 'What you owe' })).toContainText('$5,000.00');

  // The referrer sees it earned in Tee ups and in escrow on Impact.
  await referrer.goto('/dashboard');
  await expect(row).toContainText('$3,500.00');
  await snap(referrer, testInfo, 'tee-ups-earned');
  await referrer.goto('/referral-impact');
  await expect(referrer.getByTestId('impact-escrow')).toContainText(/\$3,500(\.00)?(?!\d)/);
  await expect(referrer.getByTestId('impact-paid')).toContainText(/\$0(\.00)?(?!\d)/);

  // An administrator records the payout and exports it.
  const reference = `PAY-${RUN}`;
  await admin.goto('/admin');
  await admin.getByRole('tab', { name: /Payouts/ }).click();
  // The administrator finds the referral by the reference the vendor quotes: whose it is and what is confirmed.
  const milestoneForm = admin.getByRole('form', { name: 'Record a milestone for a vendor' });
  await milestoneForm.getByLabel('Referral id or link').fill(leadReference);
  const found = milestoneForm.getByRole('region', { name: leadReference });
  await expect(found).toContainText(`Nilsen Freight AS (${client.firstName} ${client.lastName})`);
  await expect(found).toContainText(`${rob.firstName} ${rob.lastName} (${rob.email})`);
  await expect(found.getByRole('listitem', { name: 'Closed-Won' })).toContainText('Confirmed by the vendor');
  await snap(admin, testInfo, 'admin-referral-lookup');
  await milestoneForm.getByLabel('Referral id or link').fill('');
  await admin.getByLabel(`All of ${possessive(`${rob.firstName} ${rob.lastName}`)} commissions`).check();
  const record = admin.getByRole('form', { name: 'Record payout' });
  await record.getByLabel('Payment reference').fill(reference);
  await record.getByLabel('Method').selectOption('bank_transfer');
  // The form offers today (the browser's): a payout cannot predate the commissions it pays, earned just now.
  const now = new Date();
  const today = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
  await expect(record.getByLabel('Paid on')).toHaveValue(today);
  await expect(record.getByLabel('Paid on')).toHaveAttribute('min', today);
  await record.getByRole('button', { name: 'Record payout' }).click();
  const recorded = admin.getByRole('region', { name: 'Recorded payouts' });
  await expect(recorded).toContainText(reference);
  await snap(admin, testInfo, 'admin-payouts');
  const exportHref = await recorded
    .getByRole('link', { name: `Export CSV of payout ${reference}` })
    .getAttribute('href');
  const exported = await admin.request.get(exportHref!);
  expect(exported.headers()['content-disposition']).toBe(`attachment; filename="payout-${today}-${reference}.csv"`);
  const csv = await exported.text();
  expect(csv.split('\n')[0]).toContain('Payout reference');
  expect(csv).toContain(reference);
  expect(csv).toContain('5000.00');
  expect(csv).toContain('3500.00');

  // The referrer sees it paid, and is told by email.
  await referrer.goto('/referral-impact');
  await expect(referrer.getByTestId('impact-paid')).toContainText(/\$3,500(\.00)?(?!\d)/);
  await expect(referrer.getByTestId('impact-escrow')).toContainText(/\$0(\.00)?(?!\d)/);
  await snap(referrer, testInfo, 'impact-paid');
  await waitForEmail(
    (m) => m.to.includes(rob.email) && `${m.subject} ${m.text}`.includes(reference),
    'the payout email to the referrer',
  );

  // The CRM received every event, signed with its endpoint's secret; the failing endpoint got a retry.
  await expect
    .poll(async () => (await deliveriesTo(okPath)).map((d) => JSON.parse(d.body).type as string).sort(), {
      timeout: 30_000,
      message: 'lead.created, lead.status_changed and commission.created at the CRM',
    })
    .toEqual(expect.arrayContaining(['commission.created', 'lead.created', 'lead.status_changed']));
  const ok = await deliveriesTo(okPath);
  for (const delivery of ok) expect(verifySignature(delivery, okSecret), delivery.body).toBe(true);
  expect(verifySignature(ok[0]!, flakySecret)).toBe(false);
  const earned = ok.find((d) => JSON.parse(d.body).type === 'commission.created')!;
  expect(JSON.parse(earned.body).data).toMatchObject({
    grossCents: 500_000,
    referrerCents: 350_000,
    milestone: 'closedWon',
  });

  await expect
    .poll(async () => (await deliveriesTo(flakyPath)).map((d) => d.answered), {
      timeout: 30_000,
      message: 'the failing endpoint answered 500, then the retry got 200',
    })
    .toEqual([500, 200]);
  const [first, retry] = await deliveriesTo(flakyPath);
  expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
  for (const delivery of [first!, retry!]) expect(verifySignature(delivery, flakySecret)).toBe(true);

  // The workspace's settings list the deliveries with the endpoint's answers.
  await vendor.goto('/vendor');
  await vendor.reload();
  const flakyLog = vendor.getByRole('region', { name: `Deliveries to ${HOOKS}${flakyPath}` });
  await expect(flakyLog).toContainText('succeeded');
  await expect(flakyLog).toContainText('HTTP 200');
  await snap(vendor, testInfo, 'vendor-webhooks');
});
