import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toMatch, type LocalRanking, type Matcher } from '../src/match/engine.ts';
import { seededRandom } from '@app/testing/random';
import { Bm25Index } from '../src/match/bm25.ts';
import { terms } from '../src/match/text.ts';
import { buildMatcher, queries } from './match-catalogue.ts';

const digestOf = (answers: Array<ReturnType<typeof answer>>) => ({
  candidates: answers.reduce((sum, a) => sum + a.candidates.length, 0),
  excluded: answers.reduce((sum, a) => sum + a.excluded.length, 0),
  digest: createHash('sha256').update(JSON.stringify(answers)).digest('hex'),
});

/**
 * Everything `rank` answers, in order: every candidate as the response and the language model see it (id,
 * vendor, company, fit, reasons, reward) and every exclusion with its reasons.
 */
const answer = (ranking: LocalRanking) => ({
  candidates: ranking.candidates.map((candidate) => {
    const { programId, vendorId, companyName, fit, reasons, reward } = toMatch(candidate);
    return [programId, vendorId, companyName, fit, reasons, reward];
  }),
  excluded: ranking.excluded,
});

/**
 * The local ranking of the bench's 50 needs over its synthetic catalogues (bench/smart-match.ts), pinned:
 * the digests were taken from the ranking before its issue-15 optimisations (per-vendor compiled ICP,
 * per-program precomputed rewards, reasons built once per candidate) and must not move. A change that
 * means to rank differently updates them, and says why.
 */
const built = new Map<number, Matcher>();
const catalogue = (size: number) => built.get(size) ?? built.set(size, buildMatcher(size)).get(size)!;

describe('Smart Match local ranking over the bench catalogue', () => {
  it.each([
    [
      100,
      { candidates: 488, excluded: 248, digest: 'a0ef65f2873cd7f18be10123f0250982eedc295d93176f3ea6f27719ecd5281b' },
    ],
    [
      10_000,
      { candidates: 2199, excluded: 801, digest: 'f8765d76b9e7e2b140c9b48dab1514b745bac24585246083742b4943a141760e' },
    ],
  ])('ranks exactly as before over %i programs', (size, expected) => {
    const matcher = catalogue(size);
    expect(digestOf(queries().map((request) => answer(matcher.rank(request))))).toEqual(expected);
  });

  it('ranks exactly as before with job titles, country aliases, free-text facts and vendors changed later', () => {
    const matcher = buildMatcher(300);
    // Vendors saved again after their programs: other criteria (job titles, free-text industries and
    // countries), no criteria, unverified, renamed, other bounties.
    for (let i = 0; i < 300; i += 3) {
      const kind = (i / 3) % 6;
      matcher.putVendor({
        vendorId: `vendor-${i}`,
        name: kind === 4 ? '' : `Renamed ${i}`,
        verified: kind !== 3,
        criteria:
          kind === 5
            ? null
            : {
                countries: [['USA', 'Germany'], ['uk'], ['United States of America', 'FR'], []][i % 4],
                employeeCount: kind === 1 ? ['2-10', '11-50'] : [],
                industries: [['Software'], ['Computer Software', 'Health Care'], []][i % 3],
                seniority: kind === 2 ? ['VP', 'Director'] : [],
                jobTitles: [['Head of Sales'], ['CTO', 'Office Manager'], [], ['Chief People Officer']][i % 4],
                techStack: i % 2 ? ['salesforce', 'Slack'] : ['HubSpot'],
              },
        bounties: {
          qualifiedLead: { enabled: i % 2 === 0, type: 'flat', amount: 75 },
          opportunityCreated: { enabled: kind === 1, type: 'flat', amount: 10 },
          closedWon: { enabled: true, type: 'percentage_mrr', amount: 15, months: 6 },
        },
      });
    }
    // Programs saved again: moved to another vendor, deactivated, renamed.
    for (let i = 1; i < 300; i += 7) {
      const program = matcher.program(`program-${i}`)!;
      matcher.putProgram({ ...program, vendorId: i % 2 ? `vendor-${i + 2}` : null, name: `${program.name} II` });
    }
    for (let i = 5; i < 300; i += 11) matcher.putProgram({ ...matcher.program(`program-${i}`)!, isActive: false });
    const roles = ['Head of Sales EMEA', 'VP of Sales', 'CTO', 'Office Manager', 'Sales Intern', 'Growth person'];
    const countries = ['usa', 'UK', 'Germany', 'France', 'Brazil', 'United States'];
    const industries = ['Software', 'Hospital & Health Care', 'Retail', 'computer software'];
    const requests = queries().flatMap((request, i) => [
      request,
      {
        ...request,
        role: roles[i % roles.length],
        country: countries[i % countries.length],
        industry: industries[i % industries.length],
        integrations: i % 2 ? ['Salesforce', 'slack'] : ['HubSpot'],
        urgency: 'high' as const,
      },
    ]);
    expect(digestOf(requests.map((request) => answer(matcher.rank(request))))).toEqual({
      candidates: 1672,
      excluded: 1084,
      digest: '620de11b3e99224534d8ac61095dda8dceb5f2ba0906f31a3bbe6b8697cb1171',
    });
  });

  /** How many programs of the catalogue have each word: category words are in ~5 % of them, generic ones in ~half. */
  const documentCounts = (matcher: Matcher) => {
    const documents = new Map<string, number>();
    for (const program of matcher.activePrograms())
      for (const term of new Set(terms(`${program.name} ${program.description} ${program.rewardDetails}`)))
        documents.set(term, (documents.get(term) ?? 0) + 1);
    return documents;
  };

  it('retrieves the same best k with the pruning of common words as by scoring every document', () => {
    const matcher = catalogue(10_000);
    const { index } = matcher;
    const documents = documentCounts(matcher);
    const vocabulary = [...documents.keys()].filter((term) => documents.get(term)! > 50).sort();
    const common = (term: string) => documents.get(term)! > index.size / 8;
    let seed = 1;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    let withCommonWords = 0;
    for (let q = 0; q < 300; q++) {
      const query = new Map<string, number>();
      for (let t = 1 + next(12); t > 0; t--) query.set(vocabulary[next(vocabulary.length)]!, next(4) ? 1 : 0.5);
      const k = [1, 5, 60, 60, 200][q % 5]!;
      // With an accept function the index scores every document and offers each to the heap (no pruning).
      const everyDocument = index.search(query, k, () => true);
      const hits = index.search(query, k);
      expect(hits, [...query.keys()].join(' ')).toEqual(everyDocument);
      if (hits.length === k && [...query.keys()].some(common) && ![...query.keys()].every(common)) withCommonWords++;
    }
    expect(withCommonWords).toBeGreaterThan(100);
  });

  it('retrieves the same best k for needs spanning several categories, with common words', () => {
    // "crm, payroll, invoicing and a helpdesk" for a startup: several words each in ~5 % of the programs
    // (any one can reach the best k alone) and a few in half of them.
    const matcher = catalogue(10_000);
    const { index } = matcher;
    const documents = documentCounts(matcher);
    const rare = [...documents.keys()].filter(
      (term) => documents.get(term)! > 200 && documents.get(term)! <= index.size / 8,
    );
    const common = [...documents.keys()].filter((term) => documents.get(term)! > index.size / 8);
    expect(rare.length).toBeGreaterThan(50);
    expect(common.length).toBeGreaterThan(5);
    const random = seededRandom(15);
    const pick = (list: string[]) => list.sort()[Math.floor(random() * list.length)]!;
    for (let q = 0; q < 300; q++) {
      const query = new Map<string, number>();
      // Common words first, last or in between: the exact scores are summed in the query's order.
      const words = [
        ...Array.from({ length: 2 + Math.floor(random() * 4) }, () => pick(rare)),
        ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(common)),
      ].sort(() => random() - 0.5);
      for (const word of words) query.set(word, random() < 0.75 ? 1 : 0.5);
      const k = [1, 10, 60, 60, 120][q % 5]!;
      const hits = index.search(query, k);
      expect(hits, [...query.keys()].join(' ')).toEqual(index.search(query, k, () => true));
      expect(hits).toHaveLength(k);
    }
  });

  it('retrieves the same best k when many documents tie, the smaller id first', () => {
    // 40 texts, each saved under 8 ids: every score is shared by 8 documents, so the k-th best is a tie
    // that the pruning must not cut differently (ids decide).
    const index = new Bm25Index();
    const random = seededRandom(99);
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');
    const everywhere = ['fast', 'team', 'simple'];
    const texts = Array.from({ length: 40 }, () =>
      [
        ...Array.from({ length: 1 + Math.floor(random() * 4) }, () => words[Math.floor(random() * words.length)]),
        ...everywhere.filter(() => random() < 0.6),
      ].join(' '),
    );
    for (let copy = 0; copy < 8; copy++)
      texts.forEach((text, i) =>
        index.upsert({ id: `doc-${(copy * 7 + i * 3) % 97}-${copy}-${i}`, fields: [{ text, weight: 1 }] }),
      );
    let tiesAtTheCut = 0;
    for (let q = 0; q < 300; q++) {
      const query = new Map<string, number>();
      for (let t = 1 + Math.floor(random() * 4); t > 0; t--) query.set(words[Math.floor(random() * words.length)]!, 1);
      for (const word of everywhere) if (random() < 0.7) query.set(word, random() < 0.5 ? 1 : 0.5);
      const k = 1 + Math.floor(random() * 60);
      const hits = index.search(query, k);
      const everyDocument = index.search(query, k + 8, () => true);
      expect(hits, [...query.keys()].join(' ')).toEqual(everyDocument.slice(0, k));
      if (hits.length === k && everyDocument[k]?.score === hits[k - 1]!.score) tiesAtTheCut++;
    }
    expect(tiesAtTheCut).toBeGreaterThan(100);
  });
});
