import { expect, test } from '@playwright/test';
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
 * Issue 9, end to end: a vendor on its own domain creates and verifies a workspace and sets its ICP and
 * bounties; a referrer's matching client is routed to its lead inbox (emailed), a non-matching one cannot be
 * routed; the vendor accepts the lead; the referrer sees it in Tee ups and is emailed; the intro goes out
 * from the referrer via Referral Hub, copying the vendor's inbox; another user with the same company name
 * sees and changes nothing.
 */

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const DOMAIN = `acme-${RUN}.test`;
const VENDOR = `Acme Analytics ${RUN}`;
const PROGRAM = `${VENDOR} Partner Program`;
const LEAD_INBOX = `leads@${DOMAIN}`;
const NEED = 'Sales analytics dashboards and pipeline reporting for the revenue team';
/** The phone its screenshots are taken on (besides 1280 x 800). */
const PHONE = [390, 844] as const;

test('a vendor workspace receives the leads routed to it; the referrer follows them; nobody else can touch it', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);

  // The vendor signs up with an address on its own domain, then creates and verifies its workspace.
  const vera = {
    firstName: 'Vera',
    lastName: 'Vendor',
    company: VENDOR,
    email: `vera@${DOMAIN}`,
    password: 'vendor passphrase',
  };
  const vendor = await userPage(browser, vera);
  await vendor.goto('/vendor');
  await expect(vendor.getByRole('form', { name: 'Create a vendor workspace' })).toBeVisible();
  await snap(vendor, testInfo, 'vendor-create', PHONE);
  await createVerifiedWorkspace(vendor, { name: VENDOR, website: `https://www.${DOMAIN}`, leadInbox: LEAD_INBOX });
  await expect(vendor.getByRole('region', { name: 'Verified by domain' })).toContainText(DOMAIN);
  await snap(vendor, testInfo, 'vendor-workspace', PHONE);

  // Its ideal customer profile: companies of 51-200 people in Germany.
  await vendor.goto('/onboarding');
  await expect(vendor.getByText(`For ${VENDOR}`)).toBeVisible();
  const countries = vendor.getByLabel('Countries');
  await countries.fill('Germany');
  await countries.press('Enter');
  await vendor.getByText('51-200', { exact: true }).click();
  await vendor.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(vendor.getByText('Ideal Customer Profile Saved', { exact: true })).toBeVisible();

  // Its bounties: $500 at Closed-Won.
  await vendor.goto('/onboarding/bounties');
  await vendor.getByRole('group', { name: 'Closed-Won' }).getByLabel('Amount (USD)').fill('500');
  await vendor.getByRole('button', { name: 'Save Bounties' }).click();
  await expect(vendor.getByText('Bounties Saved', { exact: true })).toBeVisible();

  // An administrator links the vendor's program to its workspace.
  const admin = await userPage(browser, {
    firstName: 'Ada',
    lastName: 'Admin',
    company: 'Referral Hub',
    email: 'admin-workspaces@e2e.test',
    password: 'admin passphrase',
  });
  await admin.goto('/admin');
  await admin.getByRole('tab', { name: /Vendors/ }).click();
  await expect(
    admin.getByRole('region', { name: 'Vendor workspaces' }).getByRole('row', { name: new RegExp(VENDOR) }),
  ).toContainText('Verified by domain');
  await snap(admin, testInfo, 'admin-vendors', PHONE);
  await addLinkedProgram(admin, {
    name: PROGRAM,
    workspace: `${VENDOR} (${DOMAIN})`,
    description: `${VENDOR} builds ${NEED.toLowerCase()}.`,
    website: `https://${DOMAIN}/partners`,
    reward: 'Earn 20% of the first-year ARR for every referred customer.',
  });

  // A referrer refers a matching client: routed to the vendor's lead inbox, every criterion in plain words.
  const rob = {
    firstName: 'Rob',
    lastName: 'Referrer',
    company: 'Bright Consulting',
    email: uniqueEmail('rob'),
    password: 'referrer passphrase',
  };
  const referrer = await userPage(browser, rob);
  await referFromSmartMatch(referrer, NEED, PROGRAM);
  const greta = { firstName: 'Greta', lastName: 'Gruber', email: uniqueEmail('greta') };
  await referrer.getByLabel('First name').fill(greta.firstName);
  await referrer.getByLabel('Last name').fill(greta.lastName);
  await referrer.getByLabel('Email').fill(greta.email);
  await referrer
    .getByLabel('Why is this referral a good fit?')
    .fill('Their Berlin sales team needs pipeline dashboards.');
  await describeClient(referrer, {
    name: 'Gruber Logistik GmbH',
    size: '51-200',
    country: 'Germany',
    industry: 'Logistics and Supply Chain',
  });
  await expect(referrer.getByText(`Routed to ${possessive(VENDOR)} lead inbox`)).toBeVisible();
  await expect(referrer.getByRole('list', { name: 'Fits' })).toBeVisible();
  await expect(referrer.getByRole('button', { name: 'Submit Referral' })).toBeEnabled();
  await snap(referrer, testInfo, 'referral-fits', PHONE);
  await referrer.getByRole('button', { name: 'Submit Referral' }).click();
  await expect(referrer.getByText('Referral submitted successfully', { exact: true })).toBeVisible();
  await expect(referrer.getByRole('dialog', { name: 'Automating Referral Form' })).toBeVisible();
  await expect(referrer.getByText('Success: Form filled successfully (mock dry run)')).toBeVisible({ timeout: 20_000 });

  // ...and a client in France: the reasons, no way to send it, Smart Match offered instead.
  await referFromSmartMatch(referrer, NEED, PROGRAM);
  await referrer.getByLabel('First name').fill('Francois');
  await referrer.getByLabel('Last name').fill('Fromage');
  await referrer.getByLabel('Email').fill(uniqueEmail('francois'));
  await referrer.getByLabel('Why is this referral a good fit?').fill('They need dashboards too.');
  await describeClient(referrer, { name: 'Fromagerie Dupont', size: '51-200', country: 'France' });
  const refusal = referrer.getByRole('alert').filter({ hasText: "does not match the vendor's ideal customer profile" });
  await expect(refusal).toBeVisible();
  await expect(refusal.getByRole('list', { name: 'Why it cannot be routed' }).getByRole('listitem')).not.toHaveCount(0);
  await expect(refusal.getByRole('link', { name: /Smart Match/ })).toBeVisible();
  await expect(referrer.getByRole('button', { name: 'Submit Referral' })).toBeDisabled();
  await snap(referrer, testInfo, 'referral-refused', PHONE);

  // The vendor's lead inbox is emailed, with a link to the inbox.
  const notice = await waitForEmail((m) => m.to.includes(LEAD_INBOX), 'the new lead email to the lead inbox');
  expect(notice.text).toContain('/vendor/leads');

  // The vendor sees only the matching lead, and accepts it.
  await vendor.goto('/vendor/leads');
  const lead = vendor.getByRole('article', { name: 'Gruber Logistik GmbH' });
  await expect(lead).toBeVisible();
  await expect(lead).toContainText(`${rob.firstName} ${rob.lastName}`);
  await expect(lead).toContainText('Their Berlin sales team needs pipeline dashboards.');
  await expect(lead.getByRole('list', { name: 'Fits' })).toBeVisible();
  await expect(vendor.getByRole('article', { name: 'Fromagerie Dupont' })).toHaveCount(0);
  await snap(vendor, testInfo, 'lead-inbox', PHONE);
  await lead.getByRole('button', { name: 'Accept Gruber Logistik GmbH' }).click();
  await expect(lead.getByText('Accepted', { exact: true })).toBeVisible();

  // The referrer sees the acceptance in Tee ups, in the timeline too, and is emailed.
  await referrer.goto('/dashboard');
  const row = referrer.getByRole('row', { name: new RegExp(`${greta.firstName} ${greta.lastName}`) });
  await expect(row).toContainText(`Accepted by ${VENDOR}`);
  await row.click();
  const sheet = referrer.getByRole('dialog', { name: new RegExp(`${greta.firstName} ${greta.lastName}`) });
  await expect(sheet.getByText(`${VENDOR} accepted this lead`, { exact: false })).toBeVisible();
  await expect(sheet.getByRole('list', { name: 'Activity timeline' })).toContainText('Lead accepted');
  await snap(referrer, testInfo, 'tee-ups-accepted', PHONE);
  const accepted = await waitForEmail(
    (m) => m.to.includes(rob.email) && /accept/i.test(`${m.subject} ${m.text}`),
    'the acceptance email to the referrer',
  );
  expect(`${accepted.subject} ${accepted.text}`).toContain(VENDOR);

  // The referrer did not allow their name (the form's default): the intro names them nowhere. It comes from
  // Referral Hub, to the client, copying the vendor's inbox, and replies go to that inbox, never to the referrer.
  await sheet.getByRole('link', { name: /intro email/ }).click();
  await expect(referrer).toHaveURL(/\/referral\/\d+\/email-draft$/);
  // The draft is written by the AI service from the referral; the screen checks again until it is there.
  await expect(referrer.getByLabel('Subject')).not.toHaveValue('', { timeout: 30_000 });
  await referrer.getByLabel('Subject').fill(`${greta.firstName}, meet ${VENDOR}`);
  await referrer.getByRole('tab', { name: 'Preview' }).click();
  await expect(referrer.getByRole('tabpanel')).toContainText('Referral Hub');
  await expect(referrer.getByRole('tabpanel')).not.toContainText(`${rob.firstName} ${rob.lastName}`);
  await snap(referrer, testInfo, 'intro-preview', PHONE);
  await referrer.getByRole('button', { name: 'Send Email' }).click();
  await expect(referrer.getByText('Email Sent!')).toBeVisible();
  const intro = await waitForEmail((m) => m.subject === `${greta.firstName}, meet ${VENDOR}`, 'the intro email');
  expect(intro.from).toMatch(/^"?Referral Hub"? </);
  expect(intro.to).toContain(greta.email);
  expect(intro.cc).toContain(LEAD_INBOX);
  expect(intro.replyTo).toBe(LEAD_INBOX);
  expect(`${intro.from} ${intro.replyTo} ${intro.cc} ${intro.text}`).not.toContain(rob.lastName);

  // The referrer withdraws it: the vendor sees it withdrawn, with nothing left to decide, and is emailed.
  await referrer.goto('/dashboard');
  await row.click();
  const withdraw = sheet.getByRole('group', { name: 'Withdraw this referral' });
  await withdraw.getByRole('button', { name: 'Withdraw referral' }).click();
  await expect(withdraw.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await withdraw.getByRole('button', { name: 'Yes, withdraw' }).click();
  await expect(sheet.getByText('You withdrew this referral', { exact: false })).toBeVisible();
  await snap(referrer, testInfo, 'sheet-withdrawn', PHONE);
  await sheet.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(row).toContainText('Withdrawn by you');
  await snap(referrer, testInfo, 'tee-ups-withdrawn', PHONE);
  const withdrawn = await waitForEmail(
    (m) =>
      m.to.includes(LEAD_INBOX) &&
      m.subject === `${rob.firstName} ${rob.lastName} withdrew the referral of Gruber Logistik GmbH`,
    'the withdrawal email to the lead inbox',
  );
  expect(withdrawn.text).toContain('/vendor/leads');
  await vendor.goto('/vendor/leads');
  await expect(lead.getByText('Withdrawn', { exact: true })).toBeVisible();
  await expect(lead).toContainText('withdrew this referral: there is nothing to accept, decline or confirm.');
  await expect(lead.getByRole('button', { name: /^(Accept|Decline|Confirm) / })).toHaveCount(0);
  await snap(vendor, testInfo, 'lead-withdrawn', PHONE);

  // Another user registers the same company name: no workspace, nothing to see, nothing to change.
  const mallory = await userPage(browser, {
    firstName: 'Mallory',
    lastName: 'Mimic',
    company: VENDOR,
    email: uniqueEmail('mallory'),
    password: 'mimic passphrase',
  });
  await mallory.goto('/vendor');
  await expect(mallory.getByRole('form', { name: 'Create a vendor workspace' })).toBeVisible();
  await expect(mallory.getByRole('heading', { level: 2, name: VENDOR })).toHaveCount(0);
  await mallory.goto('/onboarding');
  await expect(mallory.getByText('You have no vendor workspace yet')).toBeVisible();
  await mallory.goto('/vendor/leads');
  await expect(mallory.getByText('You have no vendor workspace yet')).toBeVisible();
  // Claiming the verified domain: refused, or at most an unverified claim that receives nothing.
  await mallory.goto('/vendor');
  const claim = mallory.getByRole('form', { name: 'Create a vendor workspace' });
  await claim.getByLabel('Company name').fill(VENDOR);
  await claim.getByLabel('Website').fill(DOMAIN);
  await claim.getByRole('button', { name: 'Create workspace' }).click();
  await expect(
    claim
      .getByText('A verified vendor workspace already exists for this website')
      .or(mallory.getByRole('region', { name: 'Not verified yet' })),
  ).toBeVisible();
  await expect(mallory.getByRole('region', { name: 'Verified by domain' })).toHaveCount(0);

  const mine = (await (await vendor.request.get('/api/vendors/mine')).json()) as {
    vendors: Array<{ id: string; name: string }>;
  };
  const vendorId = mine.vendors.find((v) => v.name === VENDOR)!.id;
  const criteriaBefore = await (await vendor.request.get(`/api/lead-criteria?vendorId=${vendorId}`)).json();
  const bountiesBefore = await (await vendor.request.get(`/api/bounties?vendorId=${vendorId}`)).json();
  const otherCriteria = {
    employeeCount: [],
    industries: ['Anything'],
    countries: ['France'],
    minRevenue: '',
    fundingStage: [],
    techStack: [],
    companyNotes: [],
    jobTitles: [],
    seniority: [],
    departments: [],
    contactNotes: [],
  };
  const attempts = [
    mallory.request.get(`/api/vendors/${vendorId}`),
    mallory.request.get(`/api/vendors/${vendorId}/leads`),
    mallory.request.patch(`/api/vendors/${vendorId}`, { data: { leadInbox: 'mallory@example.com' } }),
    mallory.request.post(`/api/lead-criteria?vendorId=${vendorId}`, { data: otherCriteria }),
    mallory.request.post(`/api/bounties?vendorId=${vendorId}`, {
      data: {
        qualifiedLead: { enabled: false },
        meetingHeld: { enabled: false },
        opportunityCreated: { enabled: false },
        closedWon: { enabled: true, type: 'flat', amount: 1 },
        retentionBonus: { enabled: false },
      },
    }),
  ];
  for (const answer of await Promise.all(attempts)) expect(answer.status(), answer.url()).toBe(403);
  expect(await (await vendor.request.get(`/api/lead-criteria?vendorId=${vendorId}`)).json()).toEqual(criteriaBefore);
  expect(await (await vendor.request.get(`/api/bounties?vendorId=${vendorId}`)).json()).toEqual(bountiesBefore);
  const after = (await (await vendor.request.get(`/api/vendors/${vendorId}`)).json()) as { leadInbox: string };
  expect(after.leadInbox).toBe(LEAD_INBOX);
});
