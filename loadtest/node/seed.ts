/**
 * `npm run loadtest:seed`: fills a staging app THROUGH ITS API with N verified referrers holding M
 * referrals (some moved along their stages), and V verified vendor workspaces whose inboxes get a third
 * of them as leads; writes what the load test needs (accounts, vendor ids) to the seed file.
 *   BASE_URL=https://staging.example.com npm run loadtest:seed -- --users 200 --referrals 5000 --vendors 20
 * Verification links are read from the app's mail: Mailpit's API (INBOX=http://mailpit:8025) or the
 * built-in inbox of `npm start` (INBOX=dev, the default). See loadtest/README.md.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { referralBody, type Seed } from '../shared/journeys.ts';
import { ApiClient, ApiError, inPool } from './client.ts';

export const DEFAULT_SEED_FILE = fileURLToPath(new URL('../.seed.json', import.meta.url));
export const DEFAULT_PASSWORD = 'Loadtest-Passw0rd-2026';

export interface SeedOptions {
  baseUrl: string;
  users: number;
  referrals: number;
  vendors: number;
  /** `dev` (GET {baseUrl}/dev/inbox/messages) or Mailpit's base URL. */
  inbox: string;
  password?: string;
  concurrency?: number;
  log?: (line: string) => void;
}

interface Account {
  email: string;
  client: ApiClient;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LINK = /\/verify-email\?token=([^&\s"<]+)&(?:amp;)?userId=([^\s"&<]+)/;

/** Finds each address's verification link in the mail, waiting for mail still on its way. */
async function verificationLinks(options: SeedOptions, emails: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const deadline = Date.now() + 30_000 + emails.length * 100;
  while (found.size < emails.length) {
    if (options.inbox === 'dev') {
      const response = await fetch(`${options.baseUrl}/dev/inbox/messages`);
      if (!response.ok) {
        throw new ApiError(
          `GET /dev/inbox/messages answered ${response.status}: INBOX=dev needs the app of \`npm start\` without SMTP_URL; for staging use INBOX=<Mailpit URL>`,
        );
      }
      for (const message of (await response.json()) as Array<{ to: string[]; text: string }>) {
        const link = LINK.exec(message.text)?.[0];
        for (const to of message.to) if (link && !found.has(to.toLowerCase())) found.set(to.toLowerCase(), link);
      }
    } else {
      await inPool(
        emails.filter((email) => !found.has(email)),
        8,
        async (email) => {
          const query = encodeURIComponent(`to:"${email}" subject:"Verify"`);
          const search = await fetch(`${options.inbox}/api/v1/search?query=${query}&limit=1`);
          if (!search.ok) throw new ApiError(`Mailpit search answered ${search.status} at ${options.inbox}`);
          const [latest] = ((await search.json()) as { messages: Array<{ ID: string }> }).messages;
          if (!latest) return;
          const message = (await (await fetch(`${options.inbox}/api/v1/message/${latest.ID}`)).json()) as {
            Text: string;
          };
          const link = LINK.exec(message.Text)?.[0];
          if (link) found.set(email, link);
        },
      );
    }
    if (found.size >= emails.length && emails.every((email) => found.has(email))) break;
    if (Date.now() > deadline) {
      const missing = emails.filter((email) => !found.has(email));
      throw new ApiError(
        `no verification email for ${missing.length} account(s), e.g. ${missing[0]} (INBOX=${options.inbox})`,
      );
    }
    await sleep(300);
  }
  return found;
}

export async function seedThroughApi(options: SeedOptions): Promise<Seed & { referralIds: number[] }> {
  const log = options.log ?? (() => {});
  const password = options.password ?? DEFAULT_PASSWORD;
  const concurrency = options.concurrency ?? 8;
  const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const vendorDomains = Array.from({ length: options.vendors }, (_, j) => `v${j + 1}-${runId}.example`);
  const accounts: Account[] = [
    ...Array.from({ length: options.users }, (_, i) => `referrer${i + 1}@${runId}.loadtest.example`),
    ...vendorDomains.map((domain) => `owner@${domain}`),
  ].map((email) => ({ email, client: new ApiClient(options.baseUrl) }));

  log(`run ${runId}: registering ${accounts.length} accounts`);
  await inPool(accounts, concurrency, (account, i) =>
    account.client.expect(201, 'POST', '/api/register', {
      firstName: i < options.users ? `Referrer${i + 1}` : 'Vendor',
      lastName: 'Loadtest',
      companyName: i < options.users ? `Agency ${i % 25}` : `Vendor ${i - options.users + 1}`,
      email: account.email,
      password,
    }),
  );

  log('verifying their email addresses');
  const links = await verificationLinks(
    options,
    accounts.map((account) => account.email),
  );
  await inPool(accounts, concurrency, async (account) => {
    const [, token, userId] = LINK.exec(links.get(account.email)!)!;
    const query = `token=${encodeURIComponent(decodeURIComponent(token!))}&userId=${encodeURIComponent(decodeURIComponent(userId!))}`;
    await account.client.expect(200, 'GET', `/api/verify-email?${query}`);
    // A fresh session that knows the address is verified.
    await account.client.expect(200, 'POST', '/api/login', { email: account.email, password });
  });

  log(`creating ${options.vendors} vendor workspaces`);
  const owners = accounts.slice(options.users);
  const vendors = await inPool(owners, concurrency, async (owner, j) => {
    const name = `Loadtest Vendor ${j + 1} ${runId}`;
    let vendor = (await owner.client.expect(201, 'POST', '/api/vendors', { name, website: vendorDomains[j] })) as {
      id: string;
      verified: boolean;
    };
    // Verified by its owner's verified address on its domain, once profiles has heard of the verification.
    const deadline = Date.now() + 20_000;
    while (!vendor.verified) {
      if (Date.now() > deadline) throw new ApiError(`vendor workspace ${name} was not verified by its owner's domain`);
      await sleep(250);
      vendor = (await owner.client.expect(200, 'POST', `/api/vendors/${vendor.id}/verification`)) as typeof vendor;
    }
    return { email: owner.email, vendorId: vendor.id, domain: vendorDomains[j]!, name };
  });

  const seed: Seed = { runId, password, users: accounts.slice(0, options.users).map((a) => a.email), vendors };
  log(`creating ${options.referrals} referrals`);
  const referrers = accounts.slice(0, options.users);
  const referralIds = await inPool(
    Array.from({ length: options.referrals }, (_, n) => n),
    concurrency,
    async (n) => {
      const referrer = referrers[n % referrers.length]!;
      const referral = (await referrer.client.expect(
        201,
        'POST',
        '/api/referrals',
        referralBody(seed, n, `${runId}-${n}`),
      )) as { id: number };
      // Some move along: Tee ups filters and the Impact dashboard get something to show.
      if (n % 4 === 1)
        await referrer.client.expect(200, 'PUT', `/api/referrals/${referral.id}/status`, { status: 'intro_made' });
      // The referrer's own tracking; commissions come from the vendor's confirmations (issue 10).
      if (n % 10 === 2)
        await referrer.client.expect(200, 'PUT', `/api/referrals/${referral.id}/status`, { status: 'became_customer' });
      return referral.id;
    },
  );
  log(`done: ${seed.users.length} referrers, ${vendors.length} vendors, ${referralIds.length} referrals`);
  return { ...seed, referralIds };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '50' },
      referrals: { type: 'string', default: '500' },
      vendors: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '8' },
      out: { type: 'string' },
    },
  });
  const baseUrl = (process.env.BASE_URL ?? '').replace(/\/$/, '');
  if (!baseUrl) {
    console.error('Set BASE_URL, e.g. BASE_URL=https://staging.example.com npm run loadtest:seed');
    process.exit(1);
  }
  const file = values.out ?? process.env.SEED_FILE ?? DEFAULT_SEED_FILE;
  try {
    const { referralIds, ...seed } = await seedThroughApi({
      baseUrl,
      users: Number(values.users),
      referrals: Number(values.referrals),
      vendors: Number(values.vendors),
      concurrency: Number(values.concurrency),
      inbox: process.env.INBOX ?? 'dev',
      password: process.env.LOADTEST_PASSWORD,
      log: (line) => console.log(line),
    });
    writeFileSync(file, `${JSON.stringify(seed, null, 2)}\n`);
    console.log(`wrote ${file} (${referralIds.length} referrals)`);
  } catch (error) {
    console.error(error instanceof ApiError ? error.message : error);
    process.exit(1);
  }
}
