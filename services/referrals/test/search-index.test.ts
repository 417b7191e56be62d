import { ReferralList, type Referral } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referralInput, startReferrals, testUser, type TestContext } from './helpers.ts';

/**
 * Issue 15: the dashboard search runs on the GIN index of (user_id, trigrams of search_text) once a user has
 * enough referrals for PostgreSQL to prefer it. Whatever the plan, a search must find exactly what a
 * case-insensitive substring test over each of the user's referrals finds (names, email, company, the
 * project's company, reason), counted and ordered as before. Thousands of rows, bulk-inserted the way the
 * service writes search_text, next to referrals created through the route; the plan is checked with EXPLAIN.
 */

let ctx: TestContext;
const alice = testUser('alice');
const bob = testUser('bob');
const app = () => ctx.service.app;

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
  // Many more, for Alice and Bob, as the service writes them (see searchTextOf).
  await ctx.sql.query(
    `INSERT INTO referrals.referrals (user_id, project_id, status, referred_first_name, referred_last_name, referred_email,
                                      referral_reason, is_referral_aware, can_use_referrer_name, company, search_text, created_at, updated_at)
     SELECT s.user_id, $3, s.status, s.first_name, s.last_name, s.email, s.reason, false, false, s.company,
            lower(concat_ws(E'\\x1f', s.first_name || ' ' || s.last_name, s.email, s.company, 'Salesforce, Inc.', s.reason)),
            now() - n * interval '1 minute', now()
       FROM generate_series(1, 60000) n,
            LATERAL (SELECT CASE WHEN n % 20 = 0 THEN $1 ELSE $2 END AS user_id,
                            (ARRAY['Anna','Ben','Carla','Dmitri','Elena','Hannah','Ines','Joanna'])[1 + (n / 7) % 8] AS first_name,
                            (ARRAY['Smith','Garcia','Müller','Rossi','Tanaka','Okafor'])[1 + (n / 8) % 6] AS last_name,
                            'client' || n || '@firm' || (n % 37) || '.example' AS email,
                            (ARRAY['Acme','Globex','Initech','Umbrella'])[1 + (n / 3) % 4] AS company,
                            'They need it for team ' || (n % 50) AS reason,
                            (ARRAY['pending','intro_made','declined'])[1 + n % 3]::referrals.referral_status AS status) s`,
    [alice.userId, bob.userId, made[0]!.projectId],
  );
  await ctx.sql.query('ANALYZE referrals.referrals');
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

/** The plan of the search's condition as the service writes it (reads.ts), with a stage or not. */
const planOf = async (term: string, status: string | null = null) => {
  const { rows } = await ctx.sql.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT count(*) FROM referrals.referrals r
      WHERE r.user_id = $1 AND ($2::referrals.referral_status IS NULL OR r.status = $2) AND r.search_text LIKE $3`,
    [alice.userId, status, `%${term}%`],
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
};

describe('search', () => {
  it.each(TERMS)('finds exactly the referrals containing %s, whatever the plan', async (_what, term) => {
    await searchesExactly(term);
  });

  it.each(['berlin', 'joanna', 'nobody-like-this'])('counts %s exactly on every page and past the last', pagesExactly);

  describe('on the trigram index alone', () => {
    // On this small table PostgreSQL still prefers the user's B-tree ranges; without them (as for a user
    // whose rows are a sliver of a large table) the search can only use the trigram index.
    beforeAll(async () => {
      const { rows } = await ctx.sql.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'referrals' AND tablename = 'referrals'
            AND indexdef LIKE '%USING btree (user_id%'`,
      );
      for (const { name } of rows) await ctx.sql.query(`DROP INDEX referrals."${name}"`);
    });

    it('is the plan', async () => {
      for (const [term, status] of [
        ['berlin', null],
        ['anna', null],
        ['oann', 'intro_made'],
      ] as const)
        expect(await planOf(term, status)).toContain('referrals_user_id_search_text_idx');
    });

    it.each(TERMS)('finds exactly the referrals containing %s', async (_what, term) => {
      await searchesExactly(term);
    });

    it.each(['berlin', 'joanna'])('counts %s exactly on every page and past the last', pagesExactly);
  });
});
