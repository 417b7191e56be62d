import { operationList, type ServiceName } from '@app/contracts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import type { z } from 'zod';

/**
 * Bad input generated from the contracts (the referrals, profiles and programs validation attacks share it):
 * for one operation and a valid example of its request, every request below is one the operation must
 * refuse with a clean 4xx `{ message, code }` (never a 5xx) and without writing anything.
 *
 * - bodies: the example with each leaf removed or replaced by a wrong type, an empty, blank, invisible or
 *   forbidden string (NUL, lone surrogate, bidi override...), a string past every limit, odd numbers
 *   (1e309, -0, NaN and numbers as strings, 2^64, negative, fractional), nested objects and arrays of
 *   thousands of items; an unknown field and prototype keys in each object; whole bodies that are no JSON
 *   object (malformed, null, an array, 10k levels of nesting), a wrong content type, a body over 1 MB.
 *   A mutation is sent only when the operation's own contract refuses it.
 * - path parameters: each one replaced by ids that are no ids (0, -1, 1e3, past bigint, %00, ..%2f...).
 * - query strings: each field bad, repeated, nested, unknown fields; a body on a GET.
 */

export interface Attack {
  what: string;
  request: InjectOptions;
  /** Refused by the contract: the answer must be a 4xx. Otherwise only "never a 5xx, well-formed". */
  mustRefuse: boolean;
}

/** An operation of the contracts, with its id. */
export type OperationSpec = (typeof operationList)[number];

/** Which operations of a service are attacked: every one the gateway routes. */
export const operationsOf = (service: ServiceName): OperationSpec[] =>
  operationList.filter((op) => op.service === service && op.access !== 'internal' && op.access !== 'dev');

type Raw = { raw: string };
const raw = (text: string): Raw => ({ raw: text });
const isRaw = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && Object.keys(value).length === 1 && 'raw' in value;

const MEGABYTE = 'x'.repeat(1024 * 1024 + 16);
const DEEP = '['.repeat(10_000) + ']'.repeat(10_000);

/** Replacement values for any leaf (strings, numbers, booleans alike). */
export const BAD_VALUES: Array<{ kind: string; value: unknown }> = [
  { kind: 'null', value: null },
  { kind: 'boolean', value: true },
  { kind: 'number', value: 1 },
  { kind: 'negative number', value: -1 },
  { kind: 'fractional number', value: 0.5 },
  { kind: 'number 1e309', value: raw('1e309') },
  { kind: 'number -1e309', value: raw('-1e309') },
  { kind: 'number -0', value: raw('-0') },
  { kind: 'number 2^64', value: raw('18446744073709551616') },
  { kind: 'number 2^53 + 1', value: raw('9007199254740993') },
  { kind: 'number as string', value: '100' },
  { kind: 'string NaN', value: 'NaN' },
  { kind: 'string Infinity', value: 'Infinity' },
  { kind: 'string -0', value: '-0' },
  { kind: 'string 1e309', value: '1e309' },
  { kind: 'empty string', value: '' },
  { kind: 'whitespace only', value: '   \t ' },
  { kind: 'zero-width only', value: '\u200b\u200b' },
  { kind: 'NUL only', value: '\u0000' },
  { kind: 'NUL inside', value: 'a\u0000b' },
  { kind: 'escaped NUL (\\u0000 in JSON)', value: raw('"x\\u0000y"') },
  { kind: 'lone high surrogate', value: raw('"a\\ud800b"') },
  { kind: 'lone low surrogate', value: raw('"\\udfff"') },
  { kind: 'RTL override', value: 'invoice\u202efdp.exe' },
  { kind: 'escape sequence', value: '\u001b[2J' },
  { kind: 'line separator', value: 'a\u2028b' },
  { kind: 'header injection', value: 'x\r\nBcc: victim@example.com' },
  { kind: 'long (20 001)', value: 'é'.repeat(20_001) },
  { kind: 'long (200 000)', value: 'y'.repeat(200_000) },
  { kind: 'invalid enum-like', value: 'not_a_valid_choice' },
  { kind: 'date out of range', value: '0000-00-00' },
  { kind: 'date year 10000', value: '10000-01-01' },
  { kind: 'date Feb 30', value: '2026-02-30' },
  { kind: 'empty object', value: {} },
  { kind: 'nested object', value: { nested: { deeper: 'x' } } },
  { kind: 'empty array', value: [] },
  { kind: 'array of a string', value: ['x'] },
  { kind: '5000 strings', value: Array.from({ length: 5000 }, (_, i) => `item ${i}`) },
  { kind: '5000 objects', value: Array.from({ length: 5000 }, () => ({})) },
  { kind: 'object with __proto__', value: raw('{"__proto__":{"isAdmin":true}}') },
];

/** Whole bodies that are not the JSON object an operation reads. */
export const BAD_BODIES: Array<{ kind: string; payload: string | Buffer; type?: string }> = [
  { kind: 'malformed JSON', payload: '{"a":' },
  { kind: 'trailing garbage', payload: '{}x' },
  { kind: 'JSON null', payload: 'null' },
  { kind: 'JSON array', payload: '[]' },
  { kind: 'JSON array of objects', payload: '[{}]' },
  { kind: 'JSON string', payload: '"x"' },
  { kind: 'JSON number 1e309', payload: '1e309' },
  { kind: 'JSON true', payload: 'true' },
  { kind: 'NaN (not JSON)', payload: '{"a":NaN}' },
  { kind: 'deep nesting (10k arrays)', payload: DEEP },
  { kind: 'top-level __proto__', payload: '{"__proto__":{"isAdmin":true}}' },
  { kind: 'top-level constructor.prototype', payload: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { kind: 'raw NUL byte in JSON', payload: '{"a":"\u0000"}' },
  { kind: 'invalid UTF-8', payload: '{"a":"\xff\xfe"}', type: 'application/json' },
  { kind: 'text/plain', payload: 'hello', type: 'text/plain' },
  { kind: 'form-encoded', payload: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  { kind: 'XML', payload: '<a/>', type: 'application/xml' },
  { kind: 'multipart without boundary', payload: 'x', type: 'multipart/form-data' },
  { kind: 'JSON in UTF-16', payload: Buffer.from('{}', 'utf16le'), type: 'application/json; charset=utf-16' },
  { kind: 'over 1 MB', payload: JSON.stringify({ a: MEGABYTE }) },
];

/** Path parameter values that are no ids (already URL-encoded as a client would send them). */
export const BAD_PARAMS: Array<{ kind: string; value: string }> = [
  { kind: 'zero', value: '0' },
  { kind: 'negative', value: '-1' },
  { kind: 'exponent', value: '1e3' },
  { kind: 'fraction', value: '1.5' },
  { kind: 'past bigint', value: '99999999999999999999999999' },
  { kind: 'past int4', value: '2147483648' },
  { kind: 'NaN', value: 'NaN' },
  { kind: 'encoded NUL', value: '%00' },
  { kind: 'NUL inside', value: 'a%00b' },
  { kind: 'encoded traversal', value: '..%2f..%2fadmin' },
  { kind: 'lone surrogate (CESU bytes)', value: '%ED%A0%80' },
  { kind: 'invalid UTF-8', value: '%FF%FE' },
  { kind: 'RTL override', value: '%E2%80%AE1' },
  { kind: 'emoji', value: '%F0%9F%98%80' },
  { kind: 'SQL', value: "1'%20OR%20'1'='1" },
  { kind: 'not a uuid', value: 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz' },
  { kind: 'unknown uuid', value: '00000000-0000-4000-8000-000000000000' },
  { kind: 'long (300)', value: '9'.repeat(300) },
];

const QUERY_VALUES = [
  '',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%E2%80%AEx',
  '%20%20',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '1.5',
  '18446744073709551616',
  '0000-01-01',
  '2026-02-30',
  '99999-01-01',
  'x'.repeat(300),
];

type Path = Array<string | number>;

/** Every leaf of a JSON value, as paths. */
function leaves(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.length ? value.flatMap((item, i) => leaves(item, [...path, i])) : [path];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [path];
}
/** Every object and array of a JSON value, as paths. */
function containers(value: unknown, path: Path = []): Array<{ path: Path; array: boolean }> {
  if (Array.isArray(value))
    return [{ path, array: true }, ...value.flatMap((item, i) => containers(item, [...path, i]))];
  if (value && typeof value === 'object')
    return [
      { path, array: false },
      ...Object.entries(value).flatMap(([key, item]) => containers(item, [...path, key])),
    ];
  return [];
}

const MARK = 'validation-attack-raw-7f3c';

/** The example with the value at `path` replaced (removed with `undefined`), as JSON text. */
function mutate(example: unknown, path: Path, value: unknown): string {
  if (path.length === 0) return isRaw(value) ? value.raw : JSON.stringify(value);
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

/** The example with a key added to the object at `path`. */
function addKey(example: unknown, path: Path, name: string, valueJson: string): string {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path) target = target[key] as typeof copy;
  target[MARK] = MARK;
  return JSON.stringify(copy).replace(`"${MARK}":"${MARK}"`, () => `${JSON.stringify(name)}:${valueJson}`);
}

/** Whether the contract accepts this JSON text as the body (the services read a missing or null body as {}). */
export function contractAccepts(schema: z.ZodType, text: string): boolean {
  if (/"(__proto__|constructor)"/.test(text)) return false; // the services' JSON parser refuses them
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return schema.safeParse(parsed ?? {}).success;
}

/** The operation's path with these (already encoded) parameter values. */
const fill = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? encodeURIComponent('missing'));

/** The query as Fastify reads it: repeated keys become arrays. */
function parsedQuery(query: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const had = result[key];
    result[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return result;
}

/**
 * Every attack on one operation. `example` is a valid body (required when the operation has one), `params`
 * its path parameters naming real things (encoded), `headers` the identity that reaches validation.
 */
export function attacksOn(
  op: OperationSpec,
  {
    example,
    params = {},
    headers,
  }: { example?: unknown; params?: Record<string, string>; headers: Record<string, string> },
): Attack[] {
  const attacks: Attack[] = [];
  const kind = op.bodyKind ?? (op.body ? 'json' : undefined);
  const url = fill(op.path, params);
  const json = { ...headers, 'content-type': 'application/json' };
  const bodyless = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
  const validBody = example === undefined ? undefined : JSON.stringify(example);

  if (kind === 'json' && op.body) {
    if (example === undefined) throw new Error(`${op.id}: a valid example is needed`);
    const schema = op.body;
    if (!schema.safeParse(example).success) throw new Error(`${op.id}: the example is not valid`);
    const mutations: Array<{ what: string; text: string }> = [];
    for (const leaf of leaves(example)) {
      const name = leaf.join('.') || 'body';
      if (leaf.length) mutations.push({ what: `${name} missing`, text: mutate(example, leaf, undefined) });
      for (const bad of BAD_VALUES)
        mutations.push({ what: `${name}: ${bad.kind}`, text: mutate(example, leaf, bad.value) });
    }
    for (const at of containers(example)) {
      const name = at.path.join('.') || 'body';
      if (at.array) {
        const first = (at.path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], example) as unknown[])[0];
        mutations.push({
          what: `${name}: 5000 items`,
          text: mutate(
            example,
            at.path,
            Array.from({ length: 5000 }, (_, i) => (typeof first === 'string' ? `${first} ${i}` : first)),
          ),
        });
        mutations.push({ what: `${name}: a string`, text: mutate(example, at.path, 'x') });
        mutations.push({ what: `${name}: an object`, text: mutate(example, at.path, { 0: first }) });
      } else {
        for (const [key, value] of [
          ['unexpected', '"field"'],
          ['isAdmin', 'true'],
          ['userId', '"00000000-0000-4000-8000-000000000000"'],
          ['__proto__', '{"isAdmin":true}'],
          ['constructor', '{"prototype":{"isAdmin":true}}'],
        ] as const)
          mutations.push({ what: `${name} + ${key}`, text: addKey(example, at.path, key, value) });
        if (at.path.length) mutations.push({ what: `${name}: a string`, text: mutate(example, at.path, 'x') });
      }
    }
    for (const mutation of mutations)
      if (!contractAccepts(schema, mutation.text))
        attacks.push({
          what: `body ${mutation.what}`,
          request: { method: op.method, url, headers: json, payload: mutation.text },
          mustRefuse: true,
        });
    for (const bad of BAD_BODIES) {
      if (!bad.type && typeof bad.payload === 'string' && contractAccepts(schema, bad.payload)) continue;
      attacks.push({
        what: `body: ${bad.kind}`,
        request: {
          method: op.method,
          url,
          headers: { ...headers, 'content-type': bad.type ?? 'application/json' },
          payload: bad.payload,
        },
        mustRefuse: true,
      });
    }
    if (!schema.safeParse({}).success) {
      attacks.push({ what: 'no body', request: { method: op.method, url, headers: bodyless }, mustRefuse: true });
      attacks.push({
        what: 'empty body',
        request: { method: op.method, url, headers: json, payload: '' },
        mustRefuse: true,
      });
    }
    attacks.push({
      what: 'valid JSON with no content type',
      request: { method: op.method, url, headers: { ...bodyless, 'content-type': '' }, payload: validBody },
      mustRefuse: !schema.safeParse({}).success,
    });
  } else if (op.method !== 'GET' && kind !== 'upload') {
    // An operation that reads no body: a body of any kind is ignored or refused, never a crash.
    for (const bad of BAD_BODIES.slice(0, 6))
      attacks.push({
        what: `unread body: ${bad.kind}`,
        request: {
          method: op.method,
          url,
          headers: { ...headers, 'content-type': bad.type ?? 'application/json' },
          payload: bad.payload,
        },
        mustRefuse: false,
      });
  }

  if (op.method === 'GET') {
    attacks.push({
      what: 'a JSON body on a GET',
      request: { method: 'GET', url, headers: json, payload: '{"isAdmin":true,"userId":"x"}' },
      mustRefuse: false,
    });
    attacks.push({
      what: 'a malformed body on a GET',
      request: { method: 'GET', url, headers: json, payload: '{"a":' },
      mustRefuse: false,
    });
  }

  // Path parameters: each one bad, the others real; the body (if any) valid, so the id is the only fault.
  for (const name of Object.keys(params)) {
    for (const bad of BAD_PARAMS) {
      const badUrl = fill(op.path, { ...params, [name]: bad.value });
      attacks.push({
        what: `param ${name}: ${bad.kind}`,
        request:
          kind === 'json'
            ? { method: op.method, url: badUrl, headers: json, payload: validBody }
            : { method: op.method, url: badUrl, headers: bodyless },
        mustRefuse: true,
      });
    }
  }

  // Query strings: the ones the contract refuses must be refused; the others must merely not crash.
  const shape = (op.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  const keys = shape ? Object.keys(shape) : [];
  if (op.query || op.method === 'GET') {
    const queries = [
      ...keys.flatMap((key) => [
        ...QUERY_VALUES.map((value) => `${key}=${value}`),
        `${key}=a&${key}=b`,
        `${key}[a]=1`,
        `${key}[]=1`,
      ]),
      'unexpected=1',
      '__proto__[isAdmin]=true',
      'constructor[prototype][isAdmin]=true',
      'a=%E0%A4%A',
      '%00=1',
    ];
    for (const query of queries) {
      const refused = op.query ? !op.query.safeParse(parsedQuery(query)).success : false;
      attacks.push({
        what: `query ${query.slice(0, 40)}`,
        request:
          kind === 'json'
            ? { method: op.method, url: `${url}?${query}`, headers: json, payload: validBody }
            : { method: op.method, url: `${url}?${query}`, headers: bodyless },
        mustRefuse: refused,
      });
    }
  }
  return attacks;
}

/** Internal details a body must never show. */
const INTERNALS =
  /\n\s+at |node_modules|\/work\/|\.ts:\d+|file:\/\/|prisma|SELECT |INSERT |violates|relation "|ECONNREFUSED/i;

/** What is wrong with an answer to an attack ('' when nothing). */
export function problemOf(attack: Attack, status: number, body: string): string {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 200)}`;
  if (INTERNALS.test(body)) return `internal details in the body: ${body.slice(0, 200)}`;
  if (attack.mustRefuse && status < 400) return `accepted (${status}): ${body.slice(0, 200)}`;
  if (status >= 400) {
    let json: { message?: unknown; code?: unknown };
    try {
      json = JSON.parse(body) as typeof json;
    } catch {
      return `error body is not JSON: ${body.slice(0, 200)}`;
    }
    if (typeof json.message !== 'string' || !json.message.trim() || typeof json.code !== 'string')
      return `error body is not { message, code }: ${body.slice(0, 200)}`;
    if (json.message.length > 300) return `message too long for a screen: ${json.message.slice(0, 100)}…`;
  }
  return '';
}

export interface Outcome {
  op: string;
  what: string;
  status: number;
  problem: string;
}

/** Sends every attack (a few at a time) and returns the statuses seen and the problems found. */
export async function runAttacks(
  app: FastifyInstance,
  op: OperationSpec,
  attacks: Attack[],
): Promise<{ statuses: Map<number, number>; problems: Outcome[] }> {
  const statuses = new Map<number, number>();
  const problems: Outcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < attacks.length) {
        const attack = attacks[next++]!;
        let status = 0;
        let problem: string;
        try {
          const response = await app.inject(attack.request);
          status = response.statusCode;
          problem = problemOf(attack, status, response.body);
        } catch (error) {
          problem = `no answer: ${String(error)}`;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (problem) problems.push({ op: op.id, what: attack.what, status, problem });
      }
    }),
  );
  return { statuses, problems };
}

/**
 * Row count and content checksum of every table of a schema: bad input must leave them all as they were.
 * `volatile` columns (set by background work, e.g. the outbox relay's published_at) are left out.
 */
export async function schemaSnapshot(
  sql: pg.Pool,
  schema: string,
  volatile: Record<string, string[]> = {},
): Promise<Record<string, string>> {
  const { rows: tables } = await sql.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1`,
    [schema],
  );
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows: columns } = await sql.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [schema, name],
    );
    const kept = columns.map((c) => c.name).filter((c) => !(volatile[name] ?? []).includes(c));
    const row = `(${kept.map((c) => `t."${c}"`).join(', ')})::text`;
    const { rows } = await sql.query<{ n: string; sum: string }>(
      `SELECT count(*)::text AS n, coalesce(md5(string_agg(${row}, ',' ORDER BY ${row})), '') AS sum FROM "${schema}"."${name}" t`,
    );
    result[name] = `${rows[0]!.n}:${rows[0]!.sum}`;
  }
  return result;
}

/** The tables whose snapshot differs. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
