import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Browser, type Page, type TestInfo } from '@playwright/test';

/** The test SMTP server's reader, on the port playwright.config.ts chose. */
export const SMTP_MESSAGES = `http://127.0.0.1:${process.env.E2E_SMTP_HTTP_PORT}/messages`;

export interface CaughtEmail {
  to: string[];
  from: string;
  cc: string;
  replyTo: string;
  subject: string;
  text: string;
}

/** Waits until the test's SMTP server has received an email matching `match`. */
export async function waitForEmail(match: (email: CaughtEmail) => boolean, what: string): Promise<CaughtEmail> {
  let found: CaughtEmail | undefined;
  await expect
    .poll(
      async () => {
        const emails = (await (await fetch(SMTP_MESSAGES)).json()) as CaughtEmail[];
        found = emails.find(match);
        return Boolean(found);
      },
      { message: what, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

export async function verificationLink(email: string): Promise<string> {
  const message = await waitForEmail(
    (m) => m.to.includes(email) && /verify-email/.test(m.text),
    `verification email for ${email}`,
  );
  const link = new URL(/https?:\/\/\S+verify-email\S+/.exec(message.text)![0]);
  return link.pathname + link.search;
}

export const uniqueEmail = (name: string) =>
  `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** The choices of a new user's first screen (issue 12), as their buttons are named. */
const INTENT_BUTTONS = { refer: /I refer clients/, vendor: /I receive referrals/, both: /^Both/ } as const;
const INTENT_LANDS = { refer: /\/$/, vendor: /\/vendor$/, both: /\/vendor$/ } as const;

/**
 * Registers through the screen (no session yet: 'Check your email') and opens the emailed link, which
 * verifies and signs in on /onboarding, where the new user says what they came for (issue 12; 'both' unless
 * told): a signed-in, verified user, on that choice's first screen.
 */
export async function signUpVerified(
  page: Page,
  person: { firstName: string; lastName: string; company: string; email: string; password: string },
  intent: keyof typeof INTENT_BUTTONS = 'both',
) {
  await page.goto('/signup');
  await page.getByLabel('First Name').fill(person.firstName);
  await page.getByLabel('Last Name').fill(person.lastName);
  await page.getByLabel('Company Name').fill(person.company);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await page.goto(await verificationLink(person.email));
  await expect(page.getByText('Email Verified', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 5000 });
  await page.getByRole('button', { name: INTENT_BUTTONS[intent] }).click();
  await expect(page).toHaveURL(INTENT_LANDS[intent]);
}

/**
 * Creates a vendor workspace on /vendor (issue 9) and waits until it is verified by its owner's confirmed
 * address on its domain: at once, or after 'Check again' once the profiles service has heard of the
 * confirmation.
 */
export async function createVerifiedWorkspace(
  page: Page,
  workspace: { name: string; website: string; leadInbox?: string },
) {
  await page.goto('/vendor');
  const form = page.getByRole('form', { name: 'Create a vendor workspace' });
  await form.getByLabel('Company name').fill(workspace.name);
  await form.getByLabel('Website').fill(workspace.website);
  if (workspace.leadInbox) await form.getByLabel('Lead inbox (optional)').fill(workspace.leadInbox);
  await form.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByRole('heading', { level: 2, name: workspace.name })).toBeVisible();
  const verified = page.getByRole('region', { name: 'Verified by domain' });
  await expect
    .poll(
      async () => {
        if (await verified.isVisible()) return true;
        const again = page.getByRole('button', { name: 'Check again' });
        if (await again.isVisible()) await again.click();
        return false;
      },
      { timeout: 20_000, message: `${workspace.name} is verified by its domain` },
    )
    .toBe(true);
}

/** Fills the client organization of the referral form (issue 9). */
export async function describeClient(
  page: Page,
  client: { name: string; size?: string; country?: string; industry?: string; website?: string },
) {
  await page.getByLabel('Client organization').fill(client.name);
  if (client.website) await page.getByLabel('Client website').fill(client.website);
  if (client.size) await page.getByLabel('Company size').selectOption(client.size);
  if (client.country) await page.getByLabel('Country').fill(client.country);
  if (client.industry) await page.getByLabel('Industry').fill(client.industry);
}

/** A signed-up, verified user in a browser context of their own (1280 x 800). */
export async function userPage(browser: Browser, person: Parameters<typeof signUpVerified>[1]): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signUpVerified(page, person);
  return page;
}

/** An administrator adds a program by Manual Entry on /admin, linked to the vendor's workspace. */
export async function addLinkedProgram(
  admin: Page,
  program: { name: string; workspace: string; description: string; website: string; reward: string },
) {
  await admin.goto('/admin');
  await admin.getByRole('tab', { name: /Programs/ }).click();
  await admin.getByRole('tab', { name: /Manual Entry/ }).click();
  const manual = admin.getByRole('tabpanel', { name: /Manual Entry/ });
  await manual.getByLabel('Program Name').fill(program.name);
  await manual.getByLabel('Vendor workspace').selectOption({ label: program.workspace });
  await manual.getByLabel('Description').fill(program.description);
  await manual.getByLabel('Website').fill(program.website);
  await manual.getByLabel('Reward Details').fill(program.reward);
  await manual.getByRole('button', { name: 'Save Program' }).click();
  await expect(admin.getByRole('region', { name: 'Existing Referral Programs' })).toContainText(program.name);
}

/** Smart Match finds the program for the need; its Refer button leads to the referral form with the program's website. */
export async function referFromSmartMatch(page: Page, need: string, program: string) {
  await page.goto('/discover');
  await page.getByLabel('What does your client need?').fill(need);
  await page.getByRole('button', { name: 'Find Matches' }).click();
  await page.getByRole('button', { name: `Refer to ${program}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve & Continue' }).click();
  await expect(page).toHaveURL(/\/submit-referral$/);
}

/** Every finite animation on the page has finished (an infinite one, a spinner or a caret, never does). */
const ANIMATIONS_DONE = `Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => undefined))).then(() => true)`;

/**
 * What axe finds against WCAG 2.0 and 2.1, A and AA, once the page's animations have finished: a toast caught
 * half faded in or out has the contrast of a frame nobody reads, not the screen's. An animation can also start
 * while axe reads the page (a toast timing out and fading away): what it found then is checked once more after
 * that animation, and only what is still there counts, so a real violation, which stays, always fails. Each
 * violation is one string naming the screen, the rule, its impact and the elements, so a failure says where to
 * look.
 */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const analyze = async () => {
    await page.evaluate<boolean>(ANIMATIONS_DONE);
    return (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations;
  };
  let violations = await analyze();
  if (violations.length) violations = await analyze();
  return violations.map(
    (v) => `${screen} ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}`).join('\n')}`,
  );
}

/** Fails the test with every violation axe finds on the screen (`axeViolations`). */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  expect(await axeViolations(page, screen), 'axe violations').toEqual([]);
}

/**
 * Screenshots of the page as it is, full length, on a phone (360 x 800 unless told) and at 1280 x 800, kept with
 * the test's results as `<name>-<width>x<height>.png`; the page is left at 1280 x 800.
 */
export async function snap(
  page: Page,
  testInfo: TestInfo,
  name: string,
  phone: readonly [number, number] = [360, 800],
) {
  for (const [width, height] of [phone, [1280, 800]] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}x${height}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
