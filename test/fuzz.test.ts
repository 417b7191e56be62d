/**
 * The fuzz suite (issue 11, "Tests that attack"), generated from the contracts: for every operation of
 * `operationList` the gateway routes (public, user, verified, admin), as each role (anonymous, unverified
 * user, verified user, vendor member, administrator), over HTTP against the whole platform in one process
 * (`npm start`'s scripts/start.ts on a fresh PostgreSQL database): missing fields, wrong types and 30 kinds
 * of bad values in body fields, query strings and path parameters, and whole bodies that are no JSON object.
 *
 * Every request sent must be refused: a body mutation is sent only when the operation's own contract
 * refuses it (a valid example below, one leaf changed), so nothing may be stored. Asserted: no answer
 * >= 500, every error body `{ message, code }`, no stack trace or internal path in any body, and no change
 * in any table of any service schema across each operation's batch (row counts and content checksums).
 */
import { hasForbiddenCharacters, operationList, type OperationId, type OperationSpec } from '@app/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startApp, type RunningApp } from './processes.ts';

/** A payout's date: today's, as a payout cannot predate its commissions (earned as the test runs). */
const PAID_ON = new Date().toISOString().slice(0, 10);

const PASSWORD = 'Fuzz-Passw0rd-2026';
const ADMIN = 'admin@fuzz-admin.example';
const VENDOR_DOMAIN = 'fuzz-vendor.example';

type Role = 'anonymous' | 'unverified' | 'verified' | 'vendor' | 'admin';
const ROLES: Role[] = ['anonymous', 'unverified', 'verified', 'vendor', 'admin'];

/** A value as JSON text (`raw`) when JSON.stringify cannot say it (1e309, -0, 10k levels, own __proto__). */
type Raw = { raw: string };
type Bad = { kind: string; value: unknown };
const raw = (text: string): Raw => ({ raw: text });
const isRaw = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && 'raw' in value && Object.keys(value).length === 1;

const DEEP = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
const HUGE = 'x'.repeat(1024 * 1024);

/** Strings every text field refuses (or reads as empty): the classes of the text rule. */
const BAD_STRINGS: Bad[] = [
  { kind: 'NUL inside', value: 'a\u0000b' },
  { kind: 'NUL only', value: '\u0000' },
  { kind: 'C0 control (bell)', value: 'ring\u0007' },
  { kind: 'backspace', value: 'ab\bc' },
  { kind: 'escape sequence', value: '\u001b[2J\u001b[31mred' },
  { kind: 'DEL', value: 'a\u007f' },
  { kind: 'C1 control (NEL)', value: 'a\u0085b' },
  { kind: 'C1 control (CSI)', value: '\u009b31mred' },
  { kind: 'bidi override', value: 'invoice\u202efdp.exe' },
  { kind: 'bidi isolate', value: '\u2066x\u2069' },
  { kind: 'zero-width only', value: '\u200b\u200b\u200b' },
  { kind: 'byte-order mark only', value: '\ufeff' },
  { kind: 'soft hyphen only', value: '\u00ad' },
  { kind: 'line separator', value: 'a\u2028b' },
  { kind: 'lone surrogate', value: 'a\ud800b' },
  { kind: 'header injection', value: 'x\r\nBcc: victim@example.com' },
];

/** Everything else: wrong types, huge and odd numbers, arrays where objects, nesting, prototype keys. */
const BAD_VALUES: Bad[] = [
  ...BAD_STRINGS,
  { kind: 'null', value: null },
  { kind: 'boolean', value: true },
  { kind: 'number', value: 1 },
  { kind: 'number 1e309', value: raw('1e309') },
  { kind: 'number -1e309', value: raw('-1e309') },
  { kind: 'number 2^64', value: raw('18446744073709551616') },
  { kind: 'number -0', value: raw('-0') },
  { kind: 'number 0.5', value: 0.5 },
  { kind: 'string NaN', value: 'NaN' },
  { kind: 'string Infinity', value: 'Infinity' },
  { kind: 'string 2^64', value: '18446744073709551616' },
  { kind: 'empty string', value: '' },
  { kind: 'empty array', value: [] },
  { kind: 'array of objects', value: [{}] },
  { kind: 'empty object', value: {} },
  { kind: 'object with __proto__', value: raw('{"__proto__":{"isAdmin":true}}') },
  { kind: 'object with constructor.prototype', value: raw('{"constructor":{"prototype":{"isAdmin":true}}}') },
  { kind: 'object with prototype', value: { prototype: { isAdmin: true } } },
];
/** Sent once per operation (first leaf): they cost a megabyte or 20k characters each. */
const EXPENSIVE: Bad[] = [
  { kind: 'huge string (1 MB)', value: HUGE },
  { kind: 'deep nesting (10k arrays)', value: raw(DEEP) },
  { kind: 'deep nesting (10k objects)', value: raw(DEEP_OBJECT) },
];
/** Whole bodies that are not the object an operation reads. */
const BAD_BODIES: Array<{ kind: string; text: string; type?: string }> = [
  { kind: 'empty body', text: '' },
  { kind: 'malformed JSON', text: '{"a":' },
  { kind: 'JSON null', text: 'null' },
  { kind: 'JSON array', text: '[]' },
  { kind: 'JSON string', text: '"x"' },
  { kind: 'JSON number 1e309', text: '1e309' },
  { kind: 'empty object', text: '{}' },
  { kind: 'top-level __proto__', text: '{"__proto__":{"isAdmin":true}}' },
  { kind: 'top-level constructor.prototype', text: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { kind: 'top-level prototype', text: '{"prototype":{"isAdmin":true}}' },
  { kind: 'deep nesting (10k arrays)', text: DEEP },
  { kind: 'deep nesting (10k objects)', text: DEEP_OBJECT },
  { kind: 'NUL in JSON text', text: '{"a":"\u0000"}' },
  { kind: 'form-encoded', text: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  { kind: 'text/plain', text: 'hello', type: 'text/plain' },
  { kind: 'multipart without boundary', text: 'x', type: 'multipart/form-data' },
  {
    kind: 'multipart cut short',
    text: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc',
    type: 'multipart/form-data; boundary=b',
  },
];
/** Path parameter values: the text rule, traversal, odd numbers, an id of another kind. */
const BAD_PARAMS = [
  ...BAD_STRINGS.map((bad) => ({ kind: bad.kind, value: bad.value as string })),
  { kind: 'traversal', value: '../../etc/passwd' },
  { kind: 'negative', value: '-1' },
  { kind: 'huge number', value: '18446744073709551616' },
  { kind: 'exponent', value: '1e309' },
  { kind: 'NaN', value: 'NaN' },
  { kind: 'not a uuid', value: 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz' },
  { kind: 'SQL', value: "1' OR '1'='1" },
  { kind: 'long (100)', value: '9'.repeat(100) },
];
/** Session cookies that name no session: odd bytes (read as Latin-1: C1 controls, soft hyphen), huge, encoded NUL. */
const BAD_COOKIES = ['sid=\u0085\u009b\u00ad', `sid=${'a'.repeat(8000)}`, 'sid=%00', 'sid=; sid=x', 'sid=a b'];

/** Operations not fuzzed here, and why (printed). */
const SKIPPED: Partial<Record<OperationId, string>> = {
  resolveSession: 'internal: never routed by the gateway',
  askReferralProgram: 'internal: never routed by the gateway',
  devInbox: 'dev inbox of `npm start`: no input',
  devInboxMessages: 'dev inbox of `npm start`: no input',
};

interface Fixture {
  referralId: number;
  vendorId: string;
  unverifiedEmail: string;
}

/** A valid request of each operation with a JSON body, checked against its contract below. */
function examples(f: Fixture): Partial<Record<OperationId, unknown>> {
  const milestone = { milestone: 'qualifiedLead', note: 'Confirmed on the call' };
  return {
    register: {
      firstName: 'Zoë',
      lastName: 'Fuzz',
      companyName: 'Fuzz Ltd',
      email: 'new@fuzz-new.example',
      password: PASSWORD,
    },
    login: { email: f.unverifiedEmail, password: PASSWORD },
    resendVerification: { email: f.unverifiedEmail },
    changePassword: { currentPassword: PASSWORD, newPassword: 'Another-pass-1', confirmPassword: 'Another-pass-1' },
    changeEmail: { newEmail: 'changed@fuzz-new.example', password: PASSWORD },
    setIntent: { intent: 'both' },
    createReferral: {
      referredFirstName: 'Grace',
      referredLastName: 'Hopper',
      referredEmail: 'grace@client.example',
      referralReason: 'They need a CRM\nthis quarter.',
      isReferralAware: true,
      canUseReferrerName: true,
      product: 'Fuzz Platform',
      company: 'Fuzz Vendor',
      website: VENDOR_DOMAIN,
      description: 'A CRM',
      client: { name: 'Client Org', website: 'client.example', country: 'Germany', industry: 'Software' },
      notes: 'Warm lead',
    },
    checkReferralFit: {
      product: 'Fuzz Platform',
      company: 'Fuzz Vendor',
      website: VENDOR_DOMAIN,
      client: { name: 'Org' },
    },
    sendEmail: {
      subject: 'Introduction',
      body: 'Hello,\nmeet Grace.',
      recipients: { to: ['grace@client.example'], cc: ['cc@client.example'], bcc: [] },
    },
    updateStatus: { status: 'intro_made' },
    automateReferral: { dryRun: true },
    requestConfirmation: { milestone: 'qualifiedLead', message: 'Please confirm' },
    declineLead: { reason: 'Not our region' },
    confirmMilestone: milestone,
    setExpectedValue: { expectedValueCents: 500_000 },
    reverseDeal: { reason: 'The deal fell through' },
    adminConfirmMilestone: milestone,
    adminReverseDeal: { reason: 'The deal fell through' },
    recordPayout: {
      reference: 'PAY-1',
      method: 'bank_transfer',
      paidOn: PAID_ON,
      commissionIds: ['7d7c9d6e-6f53-4f7b-9a55-0a4b6c3b2a10'],
    },
    saveLeadCriteria: {
      employeeCount: ['11-50'],
      industries: ['Software'],
      countries: ['Germany'],
      minRevenue: '1000',
      techStack: ['Salesforce'],
      companyNotes: ['B2B'],
      jobTitles: ['CTO'],
      contactNotes: ['Technical buyer'],
    },
    saveBounties: {
      qualifiedLead: { enabled: false },
      meetingHeld: { enabled: false },
      opportunityCreated: { enabled: false },
      closedWon: { enabled: true, type: 'flat', amount: 500 },
      retentionBonus: { enabled: false },
    },
    requestDemo: {
      firstName: 'Ada',
      lastName: 'Demo',
      email: 'ada@demo.example',
      phone: '+1 555 0100',
      website: 'demo.example',
      referralSource: 'Google',
    },
    createVendor: { name: 'Other Vendor', website: 'other-vendor.example', leadInbox: 'leads@other-vendor.example' },
    updateVendor: { name: 'Fuzz Vendor Renamed', leadInbox: `leads@${VENDOR_DOMAIN}` },
    inviteMember: { email: `colleague@${VENDOR_DOMAIN}`, role: 'member' },
    adminCreateVendor: { name: 'Admin Vendor', website: 'admin-vendor.example', approve: true, note: 'Known partner' },
    approveVendor: { note: 'Checked by phone' },
    revokeVendor: { note: 'Approved by mistake' },
    createWebhook: { url: 'https://hooks.example.com/in', events: ['lead.created'], description: 'CRM' },
    createProgram: {
      name: 'Fuzz Partners',
      description: 'Refer customers.\nEarn rewards.',
      website: `https://${VENDOR_DOMAIN}/partners`,
      rewardDetails: '$500 per closed deal',
      vendorId: f.vendorId,
      isActive: true,
    },
    updateProgram: { name: 'Fuzz Partners 2', isActive: false },
    searchProducts: { query: 'HubSpot' },
    smartMatch: { need: 'A CRM for a sales team', company: 'Org', integrations: ['Slack'], limit: 5 },
  };
}

/** Path parameters that name real things where the fixture has them (so a bad one next to them is the only fault). */
function paramsFor(op: OperationSpec, f: Fixture): Record<string, string> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const known: Record<string, string> = {
    vendorId: f.vendorId,
    referralId: String(f.referralId),
    id: op.path.startsWith('/api/referrals') || op.path.startsWith('/api/admin/referrals') ? String(f.referralId) : '',
  };
  return Object.fromEntries(names.map((name) => [name, known[name] || '0b8f8f66-8d5e-4a0c-9d8e-6b0d1a1f0c11']));
}

/** Every leaf of a JSON value (and every object, for added keys), as paths. */
function leaves(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [path];
}
function objects(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, i) => objects(item, [...path, i]));
  if (value && typeof value === 'object')
    return [path, ...Object.entries(value).flatMap(([key, item]) => objects(item, [...path, key]))];
  return [];
}

/** encodeURIComponent, except that a lone surrogate is sent as its (invalid UTF-8) bytes instead of throwing. */
const encode = (value: string) =>
  value.replace(/[\s\S]/gu, (char) =>
    /\p{Cs}/u.test(char)
      ? `%${[0xe0 | (char.charCodeAt(0) >> 12), 0x80 | ((char.charCodeAt(0) >> 6) & 63), 0x80 | (char.charCodeAt(0) & 63)].map((b) => b.toString(16).toUpperCase()).join('%')}`
      : encodeURIComponent(char),
  );
/** The operation's path with these parameters (encoded as above). */
const fill = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(params[name]!));

const MARK = 'fuzz-raw-value-5b1e';
/** The example with the value at `path` replaced (removed with `undefined`), as JSON text. */
function mutate(example: unknown, path: Array<string | number>, value: unknown): string {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as typeof copy;
  const key = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(target)) target.splice(Number(key), 1);
    else delete target[key];
  } else target[key] = isRaw(value) ? MARK : value;
  const text = JSON.stringify(copy);
  return isRaw(value) ? text.replace(`"${MARK}"`, () => value.raw) : text;
}

/** The example with a key added to the object at `path` (its name and value as JSON text). */
function addKey(example: unknown, path: Array<string | number>, name: string, valueJson: string): string {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path) target = target[key] as typeof copy;
  target[MARK] = MARK;
  return JSON.stringify(copy).replace(`"${MARK}":"${MARK}"`, () => `${JSON.stringify(name)}:${valueJson}`);
}

/** Whether the contract would accept this JSON text as the body (what the service reads), i.e. not a bad input. */
function contractAccepts(schema: z.ZodType, text: string): boolean {
  if (/"(__proto__|constructor)"/.test(text)) return false; // the services' JSON parser refuses them
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return schema.safeParse(parsed ?? {}).success; // the services read no body (or null) as {}
}

interface Client {
  role: Role;
  cookie: string;
}
let app: RunningApp | undefined;
let baseUrl: string;
let sql: pg.Client;
let fixture: Fixture;
const clients = new Map<Role, Client>();

async function call(client: Client, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(client.cookie ? { cookie: client.cookie } : {}),
      origin: baseUrl,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (set) client.cookie = set.split(';')[0]!;
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown>, text };
}

async function verificationLink(email: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const messages = (await (await fetch(`${baseUrl}/dev/inbox/messages`)).json()) as Array<{
      to: string[];
      text: string;
    }>;
    // An ADMIN_EMAILS address's link is withheld from the dev inbox and printed once in the terminal.
    const printed = app!
      .output()
      .split('\n')
      .filter((line) => line.includes(`Administrator sign-up for ${email}:`));
    const link = [...messages.filter((m) => m.to.includes(email)).map((m) => m.text), ...printed]
      .map((text) => /\/verify-email\?token=([^&\s"<]+)&(?:amp;)?userId=([^\s"&<]+)/.exec(text))
      .find(Boolean);
    if (link) return `/api/verify-email?token=${link[1]}&userId=${link[2]}`;
    if (Date.now() > deadline) throw new Error(`no verification email for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function signUp(role: Role, email: string, verify: boolean): Promise<Client> {
  const client: Client = { role, cookie: '' };
  const body = { firstName: role, lastName: 'Fuzz', companyName: 'Fuzz Co', email, password: PASSWORD };
  expect((await call(client, 'POST', '/api/register', body)).status).toBe(201);
  if (verify) {
    expect((await call(client, 'GET', await verificationLink(email))).status).toBe(200);
    expect((await call(client, 'POST', '/api/login', { email, password: PASSWORD })).status).toBe(200);
  }
  return client;
}

/** Row count and content checksum of every table of every service schema (bookkeeping tables apart). */
async function snapshot(): Promise<Record<string, string>> {
  const { rows: tables } = await sql.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema', 'bus')`,
  );
  const result: Record<string, string> = {};
  for (const { schema, name } of tables) {
    // Written by the platform itself, not by a request: event relay and claims, migration history, rate
    // limit counters; sessions are counted (a login would add one) but their last-seen time moves.
    if (/^(outbox_events|processed_events|_prisma_migrations|_platform_migrations)$|rate.?limit/i.test(name)) continue;
    const table = `"${schema}"."${name}"`;
    const content = /session/i.test(name) ? `''` : `coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '')`;
    const { rows } = await sql.query<{ n: string; sum: string }>(
      `SELECT count(*)::text AS n, ${content} AS sum FROM ${table} t`,
    );
    result[`${schema}.${name}`] = `${rows[0]!.n}:${rows[0]!.sum}`;
  }
  return result;
}

/**
 * A snapshot once the events of earlier work have landed: alike before and after `quietMs` (the in-process
 * bus polls every second when it misses a notification).
 */
async function settled(quietMs: number): Promise<Record<string, string>> {
  let last = await snapshot();
  for (let tries = 0; tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const next = await snapshot();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  throw new Error('the database did not settle');
}

const STACK =
  /\n\s+at |node_modules|\/work\/|\/home\/|\/app\/|\.ts:\d+|file:\/\/|Error: .*\n|prisma|SELECT |ECONNREFUSED/i;

interface Outcome {
  op: string;
  role: Role;
  what: string;
  status: number;
  problem: string;
}

/** Sends one request and says what is wrong with the answer ('' when nothing). */
async function send(
  client: Client,
  method: string,
  path: string,
  body?: { text: string; type?: string },
): Promise<{ status: number; problem: string }> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': body.type ?? 'application/json' } : {}),
        ...(client.cookie ? { cookie: client.cookie } : {}),
        origin: baseUrl,
      },
      body: body?.text,
    });
  } catch (error) {
    return { status: 0, problem: `no answer: ${String(error)}` };
  }
  const text = await response.text();
  if (response.status >= 500)
    return { status: response.status, problem: `answered ${response.status}: ${text.slice(0, 200)}` };
  if (STACK.test(text))
    return { status: response.status, problem: `internal details in the body: ${text.slice(0, 300)}` };
  if (response.status >= 400) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { status: response.status, problem: `error body is not JSON: ${text.slice(0, 200)}` };
    }
    const shape = json as { message?: unknown; code?: unknown };
    if (typeof shape.message !== 'string' || typeof shape.code !== 'string' || !shape.message)
      return { status: response.status, problem: `error body is not { message, code }: ${text.slice(0, 200)}` };
  }
  return { status: response.status, problem: '' };
}

/** The role that reaches an operation's input validation; the others are refused before it. */
function primaryRole(op: OperationSpec): Role {
  if (op.access === 'admin') return 'admin';
  if (op.access === 'public') return 'anonymous';
  return op.path.includes('{vendorId}') || op.access === 'verified' ? 'vendor' : 'verified';
}

describe('the contracts behind the fuzz suite', () => {
  it('every example is a valid request of its operation, and every text field refuses every bad string', () => {
    const all = examples({ referralId: 1, vendorId: 'v1', unverifiedEmail: 'u@x.example' });
    for (const op of operationList) {
      if (SKIPPED[op.id] || !op.body || op.bodyKind === 'raw' || op.bodyKind === 'upload') continue;
      const example = all[op.id];
      expect(example, `${op.id} needs an example in test/fuzz.test.ts`).toBeDefined();
      const parsed = op.body.safeParse(example);
      expect(parsed.success, `${op.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      for (const path of leaves(example)) {
        const value = path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], example);
        if (typeof value !== 'string') continue;
        for (const bad of BAD_STRINGS) {
          const text = mutate(example, path, bad.value);
          const result = op.body.safeParse(JSON.parse(text));
          if (!result.success) continue;
          // Accepted only when the text rule reads it as empty (an optional field) or it is a multi-line field's \r\n.
          const stored = path.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], result.data);
          // Passwords are hashed as typed: only control characters are refused there.
          const password = /password/i.test(String(path[path.length - 1]));
          expect(
            (password && typeof stored === 'string' && !/\p{Cc}/u.test(stored)) ||
              stored === '' ||
              stored === undefined ||
              (typeof stored === 'string' && !hasForbiddenCharacters(stored, true)),
            `${op.id}.${path.join('.')} accepted ${bad.kind} as ${JSON.stringify(stored)}`,
          ).toBe(true);
        }
      }
    }
  });
});

describe('the fuzz suite', () => {
  beforeAll(async () => {
    app = await startApp('fuzz-app', {
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: ADMIN,
      // Thousands of requests from one address in a minute: the limits are not what this suite attacks.
      RATE_LIMIT_AUTH_MAX: '100000000',
    });
    baseUrl = app.url;
    sql = new pg.Client({ connectionString: app.databaseUrl });
    await sql.connect();

    const unverifiedEmail = 'unverified@fuzz-users.example';
    clients.set('anonymous', { role: 'anonymous', cookie: '' });
    clients.set('unverified', await signUp('unverified', unverifiedEmail, false));
    clients.set('verified', await signUp('verified', 'verified@fuzz-users.example', true));
    const vendor = await signUp('vendor', `owner@${VENDOR_DOMAIN}`, true);
    clients.set('vendor', vendor);
    clients.set('admin', await signUp('admin', ADMIN, true));
    expect((await call(clients.get('admin')!, 'GET', '/api/user')).json.isAdmin).toBe(true);

    let created = await call(vendor, 'POST', '/api/vendors', { name: 'Fuzz Vendor', website: VENDOR_DOMAIN });
    expect(created.status, created.text).toBe(201);
    const vendorId = created.json.id as string;
    for (let tries = 0; !created.json.verified; tries++) {
      if (tries > 80) throw new Error('the vendor workspace was not verified by its domain');
      await new Promise((resolve) => setTimeout(resolve, 250));
      created = await call(vendor, 'POST', `/api/vendors/${vendorId}/verification`);
    }
    fixture = { referralId: 0, vendorId, unverifiedEmail };
    const referral = await call(clients.get('verified')!, 'POST', '/api/referrals', examples(fixture).createReferral);
    expect(referral.status, referral.text).toBe(201);
    fixture.referralId = referral.json.id as number;
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await app?.stop();
  });

  it('odd text (issue 11, items 2 and 11): NUL, zero-width-only and bidi overrides are clean 400s naming the field', async () => {
    const anonymous: Client = { role: 'anonymous', cookie: '' };
    const register = {
      firstName: 'Ada',
      lastName: 'L',
      companyName: 'Engines',
      email: 'ada@odd.example',
      password: PASSWORD,
    };
    const verified = clients.get('verified')!;
    const answers = {
      nulName: await call(anonymous, 'POST', '/api/register', { ...register, firstName: 'Ada\u0000' }),
      nulEmail: await call(anonymous, 'POST', '/api/login', { email: 'ada\u0000@odd.example', password: PASSWORD }),
      nulResend: await call(anonymous, 'POST', '/api/resend-verification', { email: '\u0000@odd.example' }),
      zeroWidthName: await call(anonymous, 'POST', '/api/register', { ...register, lastName: '\u200b\u200b' }),
      escapeCompany: await call(anonymous, 'POST', '/api/register', { ...register, companyName: '\u001b[31mEvil' }),
      rtlProduct: await call(verified, 'POST', '/api/referrals', {
        ...(examples(fixture).createReferral as object),
        product: 'PayPal\u202eytiruceS',
      }),
      nulSearch: await call(verified, 'GET', '/api/referrals?search=%00'),
      nulSubject: await call(verified, 'POST', `/api/referrals/${fixture.referralId}/send-email`, {
        ...(examples(fixture).sendEmail as object),
        subject: 'Hi\u0000',
      }),
      nulTag: await call(clients.get('vendor')!, 'POST', '/api/lead-criteria', {
        ...(examples(fixture).saveLeadCriteria as object),
        industries: ['Soft\u0000ware'],
      }),
      nulPartner: await call(verified, 'GET', '/api/referral-impact?partner=a%00'),
      nulDemo: await call(anonymous, 'POST', '/api/demo-request', {
        ...(examples(fixture).requestDemo as object),
        website: 'demo.example\u0000',
      }),
      nulNewEmail: await call(verified, 'POST', '/api/account/email', {
        newEmail: 'new\u0000@odd.example',
        password: PASSWORD,
      }),
      nulProgram: await call(clients.get('admin')!, 'POST', '/api/programs', {
        ...(examples(fixture).createProgram as object),
        name: 'Partners\u0000',
      }),
      newlineName: await call(anonymous, 'POST', '/api/register', { ...register, firstName: 'Ada\nBcc: x' }),
    };
    const said = Object.fromEntries(
      Object.entries(answers).map(([name, a]) => [name, [a.status, a.json.code, a.json.field, a.json.message]]),
    );
    expect(said).toEqual({
      nulName: [400, 'VALIDATION_FAILED', 'firstName', 'First name contains characters that are not allowed'],
      nulEmail: [400, 'VALIDATION_FAILED', 'email', 'Email contains characters that are not allowed'],
      nulResend: [400, 'VALIDATION_FAILED', 'email', 'Email contains characters that are not allowed'],
      zeroWidthName: [400, 'VALIDATION_FAILED', 'lastName', 'Last name is required'],
      escapeCompany: [400, 'VALIDATION_FAILED', 'companyName', 'Company name contains characters that are not allowed'],
      rtlProduct: [400, 'VALIDATION_FAILED', 'product', 'Product contains characters that are not allowed'],
      nulSearch: [400, 'VALIDATION_FAILED', 'search', 'Search contains characters that are not allowed'],
      nulSubject: [400, 'VALIDATION_FAILED', 'subject', 'Subject contains characters that are not allowed'],
      nulTag: [400, 'VALIDATION_FAILED', 'industries.0', 'Industries contains characters that are not allowed'],
      nulPartner: [400, 'VALIDATION_FAILED', 'partner', 'Partner contains characters that are not allowed'],
      nulDemo: [400, 'VALIDATION_FAILED', 'website', 'Company website contains characters that are not allowed'],
      nulNewEmail: [400, 'VALIDATION_FAILED', 'newEmail', 'Email contains characters that are not allowed'],
      nulProgram: [400, 'VALIDATION_FAILED', 'name', 'Program name contains characters that are not allowed'],
      newlineName: [400, 'VALIDATION_FAILED', 'firstName', 'First name must be a single line'],
    });
    // Nothing of it was stored: no account for the address.
    expect((await sql.query(`SELECT 1 FROM auth.users WHERE email = 'ada@odd.example'`)).rows).toEqual([]);
    // And the snapshot the fuzz suite compares does see a stored change (the same sign-up, valid).
    const before = await snapshot();
    expect((await call(anonymous, 'POST', '/api/register', register)).status).toBe(201);
    expect(await snapshot()).not.toEqual(before);
  });

  it('answers every bad request of every operation, as every role, with a clean 4xx and changes nothing', async () => {
    const started = Date.now();
    const all = examples(fixture);
    const failures: Outcome[] = [];
    let requests = 0;
    const statuses = new Map<number, number>();

    for (const op of operationList) {
      const skip = SKIPPED[op.id] ?? (op.access === 'internal' || op.access === 'dev' ? op.access : undefined);
      if (skip) {
        console.log(`fuzz: ${op.id} skipped (${skip})`);
        continue;
      }
      const params = paramsFor(op, fixture);
      const path = fill(op.path, params);
      const primary = primaryRole(op);
      // After the setup and the abuse test's sign-up, their events first; a refused batch emits none.
      const before = await settled(op === operationList[0] ? 1500 : 100);
      expect(Object.keys(before).length, 'tables compared').toBeGreaterThan(20);
      const jobs: Array<{
        role: Role;
        what: string;
        method: string;
        path: string;
        body?: { text: string; type?: string };
        cookie?: string;
      }> = [];
      for (const cookie of BAD_COOKIES)
        jobs.push({ role: 'anonymous', what: `cookie ${cookie.slice(0, 20)}`, method: op.method, path, cookie });

      for (const role of ROLES) {
        const full = role === primary;
        // Bodies: whole bodies that are no object, then the example with one leaf changed or removed.
        if (op.body || op.bodyKind) {
          for (const bad of full ? BAD_BODIES : BAD_BODIES.slice(0, 4))
            if (!(op.body && !bad.type && contractAccepts(op.body, bad.text || 'null')))
              jobs.push({ role, what: `body: ${bad.kind}`, method: op.method, path, body: bad });
        }
        const example = all[op.id];
        if (example !== undefined && op.body && (op.bodyKind ?? 'json') === 'json') {
          const mutations: Array<{ what: string; text: string }> = [];
          const leafPaths = leaves(example);
          leafPaths.forEach((leaf, i) => {
            mutations.push({ what: `${leaf.join('.')} missing`, text: mutate(example, leaf, undefined) });
            for (const bad of full ? [...BAD_VALUES, ...(i === 0 ? EXPENSIVE : [])] : BAD_STRINGS.slice(0, 3))
              mutations.push({ what: `${leaf.join('.')}: ${bad.kind}`, text: mutate(example, leaf, bad.value) });
          });
          if (full) {
            for (const at of objects(example)) {
              for (const [name, value] of [
                ['unexpected', '"field"'],
                ['__proto__', '{"isAdmin":true}'],
                ['constructor', '{"prototype":{"isAdmin":true}}'],
                ['prototype', '{"isAdmin":true}'],
              ] as const)
                mutations.push({ what: `${at.join('.') || 'body'} + ${name}`, text: addKey(example, at, name, value) });
            }
          }
          for (const mutation of mutations) {
            if (contractAccepts(op.body, mutation.text)) continue; // a valid request: not ours to send
            jobs.push({ role, what: mutation.what, method: op.method, path, body: { text: mutation.text } });
          }
        }
        // Path parameters: each one bad, the others real.
        if (full || role === 'anonymous') {
          for (const name of Object.keys(params)) {
            for (const bad of full ? BAD_PARAMS : BAD_PARAMS.slice(0, 2)) {
              const badPath = fill(op.path, { ...params, [name]: bad.value });
              const body =
                example !== undefined ? { text: JSON.stringify(example) } : op.body ? { text: '{}' } : undefined;
              jobs.push({ role, what: `param ${name}: ${bad.kind}`, method: op.method, path: badPath, body });
            }
          }
        }
        // Query strings: each field bad, repeated (an array), unknown fields; bodies stay bad.
        const queryKeys = op.query ? Object.keys((op.query as unknown as { shape: object }).shape ?? {}) : [];
        if (full && (op.query || op.method === 'GET')) {
          const body = op.body ? { text: '{}' } : undefined;
          const queries = [
            ...queryKeys.flatMap((key) => [
              ...BAD_STRINGS.map((bad) => ({
                what: `${key}: ${bad.kind}`,
                q: `${key}=${encode(bad.value as string)}`,
              })),
              { what: `${key} twice`, q: `${key}=a&${key}=b` },
              { what: `${key} as object`, q: `${key}[a]=1` },
              { what: `${key} 2^64`, q: `${key}=18446744073709551616` },
              { what: `${key} 1e309`, q: `${key}=1e309` },
            ]),
            { what: 'unknown field', q: 'unexpected=1' },
            { what: '__proto__ field', q: '__proto__[isAdmin]=true' },
            { what: 'malformed percent-encoding', q: 'a=%E0%A4%A' },
            { what: 'NUL key', q: '%00=1' },
          ];
          for (const { what, q } of queries)
            jobs.push({ role, what: `query ${what}`, method: op.method, path: `${path}?${q}`, body });
        }
      }

      // A few at a time: the batch is one operation's, the database is compared around it.
      let next = 0;
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (next < jobs.length) {
            const job = jobs[next++]!;
            const client = job.cookie ? { role: job.role, cookie: job.cookie } : clients.get(job.role)!;
            const { status, problem } = await send(client, job.method, job.path, job.body);
            requests++;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (problem) failures.push({ op: op.id, role: job.role, what: job.what, status, problem });
            else if (status < 400 && op.method !== 'GET' && !job.cookie)
              failures.push({
                op: op.id,
                role: job.role,
                what: job.what,
                status,
                problem: 'a bad request was accepted',
              });
          }
        }),
      );
      const after = await snapshot();
      const changed = Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
      if (changed.length)
        failures.push({
          op: op.id,
          role: primary,
          what: 'batch',
          status: 0,
          problem: `tables changed: ${changed.join(', ')}`,
        });
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${requests} requests in ${seconds} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    for (const f of failures) console.log(`fuzz failure: ${f.op} as ${f.role}, ${f.what}: ${f.problem.slice(0, 300)}`);
    expect(failures.slice(0, 20), `${failures.length} failures`).toEqual([]);
    expect(requests).toBeGreaterThan(3000);
    expect(app!.output()).not.toMatch(/FATAL|unhandled/i);
  }, 240_000);
});
