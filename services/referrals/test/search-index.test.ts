import { ReferralList, type Referral } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '@app/testing/random';
import { searched } from '../src/reads.ts';
import { referralInput, startReferrals, testUser, type TestContext } from './helpers.ts';

/**
 * Issue 15: the dashboard search reads the user's entries (of one stage when filtered by stage) in a B-tree that
 * carries search_text, index-only, and the few texts over 2,000 bytes through an index of their own (reads.ts,
 * `searched`). Whatever the plan, a search must find exactly what a case-insensitive substring test over each
 * of the user's referrals finds (names, email, company, the project's company, reason), counted and ordered as
 * before, long texts included. Thousands of rows, bulk-inserted the way the service writes search_text, next to
 * referrals created through the route; the plan is checked with EXPLAIN.
 */

let ctx: TestContext;
const alice = testUser('alice');
const app = () => ctx.service.app;

/** `length` Cyrillic letters (two bytes each in UTF-8) drawn at random: little for pglz to compress. */
const cyrillic = (length: number) => {
  const random = seededRandom(length);
  return Array.from({ length }, () => String.fromCharCode(0x430 + Math.floor(random() * 32))).join('');
};

const list = async (query: string) => {
  const response = await app().inject({ method: 'GET', url: `/api/referrals?${query}`, headers: alice.headers });
  expect(response.statusCode, response.body).toBe(200);
  return ReferralList.parse(response.json());
};

beforeAll(async () => {
  ctx = await startReferrals();
  const made: Referral[] = [];
  for (const input of [
    { referredFirstName: 'Zoë', referredLastName: 'Müller', referredEmail: 'zoe@berlin.example' },
    { referredFirstName: 'Anna', referredLastName: 'Karenina', referralReason: 'Wants 50% off_list price' },
    { referredFirstName: 'Ann', referredLastName: 'Smith', company: 'Annapurna Labs', product: 'Peak' },
    // The longest reason the form takes in two-byte letters that hardly compress (~10 KB, more than a B-tree entry
    // holds), and one of 1,500 letters: under 2,000 characters but 3,000 bytes.
    { referredFirstName: 'Long', referredLastName: 'Story', referralReason: `${cyrillic(4980)} lastword` },
    { referredFirstName: 'Wide', referredLastName: 'Story', referralReason: `${cyrillic(1500)} lastword` },
  ]) {
    const response = await app().inject({
      method: 'POST',
      url: '/api/referrals',
      headers: alice.headers,
      payload: referralInput(input),
    });
    expect(response.statusCode, response.body).toBe(201);
    made.push(response.json());
  }
  // Many more, for Alice and 950 others (the plan sees a table of many users), as the service writes them (see searchTextOf).
  await ctx.sql.query(
    `INSERT INTO referrals.referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email,
                                      referral_reason, is_referral_aware, can_use_referrer_name, company, search_text, created_at, updated_at)
     SELECT s.user_id, $2, s.status, s.first_name, s.last_name, s.email, s.reason, false, false, s.company,
            lower(concat_ws(E'\\x1f', s.first_name || ' ' || s.last_name, s.email, s.company, 'Salesforce, Inc.', s.reason)),
            now() - n * interval '1 minute', now()
       FROM generate_series(1, 60000) n,
            LATERAL (SELECT CASE WHEN n % 20 = 0 THEN $1 ELSE 'other-' || n % 1000 END AS user_id,
                            (ARRAY['Anna','Ben','Carla','Dmitri','Elena','Hannah','Ines','Joanna'])[1 + (n / 7) % 8] AS first_name,
                            (ARRAY['Smith','Garcia','Müller','Rossi','Tanaka','Okafor'])[1 + (n / 8) % 6] AS last_name,
                            'client' || n || '@firm' || (n % 37) || '.example' AS email,
                            (ARRAY['Acme','Globex','Initech','Umbrella'])[1 + (n / 3) % 4] AS company,
                            'They need it for team ' || (n % 50) || CASE WHEN n % 500 = 0 THEN repeat(' and a long story', 150) ELSE '' END AS reason,
                            (ARRAY['pending','intro_made','declined'])[1 + n % 3]::referrals.referral_status AS status) s`,
    [alice.userId, made[0]!.projectId],
  );
  // Texts of 1,999, 2,000 and 2,001 bytes: the last is the first the covering index leaves out (reads.ts).
  await ctx.sql.query(
    `INSERT INTO referrals.referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email,
                                      referral_reason, company, search_text)
     SELECT $1, $2, 'intro_made', 'Edge', 'Case', 'edge@case.example', s.reason, 'Acme', lower(concat_ws(E'\\x1f', 'Edge Case', 'edge@case.example', 'Acme', 'Salesforce, Inc.', s.reason))
       FROM generate_series(-1, 1) d,
            LATERAL (SELECT rpad('at the edge ', 2000 + d - octet_length(concat_ws(E'\\x1f', 'Edge Case', 'edge@case.example', 'Acme', 'Salesforce, Inc.', '')), 'x') AS reason) s`,
    [alice.userId, made[0]!.projectId],
  );
  // What autovacuum would have done by now: statistics and the visibility map (index-only scans).
  await ctx.sql.query('VACUUM ANALYZE referrals.referrals');
});

afterAll(async () => {
  await ctx?.close();
});

/** What the search must answer: the user's referrals whose fields contain the term, newest first (a page of 100). */
async function expected(term: string, status?: string, page = 1): Promise<{ ids: number[]; total: number }> {
  const { rows } = await ctx.sql.query<{ id: number; text: string }>(
    `SELECT r.id, concat_ws(E'\\x1f', r.referred_first_name || ' ' || r.referred_last_name, r.referred_email, r.company, p.company_name, r.referral_reason) AS text
       FROM referrals.referrals r JOIN referrals.projects p ON p.id = r.project_id
      WHERE r.user_id = $1 AND ($2::text IS NULL OR r.status::text = $2) ORDER BY r.created_at DESC, r.id DESC`,
    [alice.userId, status ?? null],
  );
  const matching = rows.filter((row) => row.text.toLowerCase().includes(term.toLowerCase())).map((row) => row.id);
  return { ids: matching.slice((page - 1) * 100, page * 100), total: matching.length };
}

const TERMS = [
  ['a rare word', 'berlin'],
  ['a word with accents', 'müller'],
  ['accents', 'zoë'],
  ['a common name', 'anna'],
  ['capitals', 'ANNA'],
  ['a word inside another (Hannah, Joanna, Annapurna)', 'nna'],
  ['two letters (no trigram)', 'an'],
  ['one letter', 'z'],
  ['a % taken literally', '50%'],
  ['an _ taken literally', 'off_list'],
  ['an email', 'client3@firm3.example'],
  ["the project's company", 'salesforce'],
  ['the reason', 'team 7'],
  ['a full name', 'ann smith'],
  ['nothing', 'nobody-like-this'],
  ['a term inside a longer word (Joanna)', 'oann'],
  ['a word starting inside another', 'nna ok'],
  ['several words', 'anna smith'],
  ['several words inside longer ones', 'nnah smi'],
  ['punctuation inside the term', 'ce, in'],
  ['an @ and digits', '7@firm7.ex'],
  ['digits', '120'],
  ['a trailing space', 'elena '],
  ['non-ASCII letters across a word', 'üller'],
  ['a non-ASCII letter and a space', 'ë m'],
  ['across two fields (never found)', 'smith client1'],
  ['a word in long reasons (over 2,000 bytes)', 'long story and'],
  ['the end of the longest reasons', 'lastword'],
  ['texts on either side of 2,000 bytes', 'at the edge'],
] as const;

async function searchesExactly(term: string) {
  for (const status of [undefined, 'intro_made', 'declined']) {
    const want = await expected(term, status);
    const got = await list(
      `days=all&pageSize=100&search=${encodeURIComponent(term)}${status ? `&status=${status}` : ''}`,
    );
    expect({ ids: got.referrals.map((r) => r.id), total: got.total }).toEqual(want);
  }
}

/** The page's count comes with its rows (one statement): every page, and one past the last, keeps it exact. */
async function pagesExactly(term: string) {
  for (const status of [undefined, 'pending']) {
    const { total } = await expected(term, status);
    for (let page = 1; page <= Math.ceil(total / 100) + 1; page++) {
      const want = await expected(term, status, page);
      const got = await list(
        `days=all&pageSize=100&page=${page}&search=${encodeURIComponent(term)}${status ? `&status=${status}` : ''}`,
      );
      expect({ ids: got.referrals.map((r) => r.id), total: got.total }).toEqual(want);
    }
  }
}

/** The plan of a search's matches as the service reads them (reads.ts), with a stage or not, in a plan cache mode. */
const planOf = async (status: string | null, mode: 'force_generic_plan' | 'force_custom_plan') => {
  const client = await ctx.sql.connect();
  try {
    await client.query(`SET search_path = referrals; SET plan_cache_mode = ${mode}`);
    const where = `r.user_id = $1 ${status ? 'AND r.status = $3::referral_status' : ''} AND strpos(r.search_text, $2) > 0`;
    await client.query(`PREPARE matches AS SELECT count(*) FROM (${searched(where)}) m`);
    const args = `'${alice.userId}', 'anna'${status ? `, '${status}'` : ''}`;
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE matches(${args})`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('DEALLOCATE ALL; RESET ALL');
    client.release();
  }
};

describe('search', () => {
  it('stores the longest reasons (no index entry over the B-tree limit)', async () => {
    const { rows } = await ctx.sql.query<{ bytes: number }>(
      `SELECT octet_length(search_text) AS bytes FROM referrals.referrals WHERE user_id = $1 AND octet_length(search_text) > 1998`,
      [alice.userId],
    );
    const bytes = rows.map((row) => row.bytes);
    expect({
      edge: bytes.filter((n) => n <= 2001).sort(),
      long: bytes.filter((n) => n > 2000).length,
      longest: Math.max(...bytes),
    }).toEqual({ edge: [1999, 2000, 2001], long: 123, longest: 10_033 });
  });

  it.each([null, 'intro_made'])(
    "reads the user's entries in the covering index, index-only, whatever the plan cache decides (stage %s)",
    async (status) => {
      for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
        const plan = await planOf(status, mode);
        expect(plan).toContain('Index Only Scan using referrals_search_short_idx');
        expect(plan).toMatch(
          /Index Scan using referrals_search_long_idx|Bitmap Index Scan on referrals_search_long_idx/,
        );
        expect(plan).not.toContain('Seq Scan');
      }
    },
  );

  it.each(TERMS)('finds exactly the referrals containing %s', async (_what, term) => {
    await searchesExactly(term);
  });

  it.each(['berlin', 'joanna', 'nobody-like-this', 'long story'])(
    'counts %s exactly on every page and past the last',
    pagesExactly,
  );

  describe('without the search indexes', () => {
    // The same answers from the plain table (the user's other B-tree ranges and the heap).
    beforeAll(async () => {
      await ctx.sql.query('DROP INDEX referrals.referrals_search_short_idx, referrals.referrals_search_long_idx');
    });

    it.each(TERMS)('finds exactly the referrals containing %s', async (_what, term) => {
      await searchesExactly(term);
    });

    it.each(['berlin', 'joanna', 'long story'])('counts %s exactly on every page and past the last', pagesExactly);
  });
});
