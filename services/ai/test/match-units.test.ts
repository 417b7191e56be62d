import { COMPANY_SIZES, SENIORITY_LEVELS } from '@app/contracts';
import { checkIcp, checkPrepared, companyKey, prepareClient, prepareCriteria, readCriteria } from '@app/domain';
import { seededRandom } from '@app/testing/random';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/match/bm25.ts';
import { Matcher, type MatchProgramRecord } from '../src/match/engine.ts';
import { bountySummaries } from '../src/match/bounties.ts';
import { seniorityOf } from '@app/domain';

describe('Smart Match building blocks', () => {
  it('normalizes vendors as the referrals service does', () => {
    expect(companyKey('Pipedrive, Inc.')).toBe('pipedrive');
    expect(companyKey('  ACME   Technologies GmbH ')).toBe('acme');
    expect(companyKey('  ')).toBe('');
  });

  it('knows a country by its usual other names and abbreviations, dotted or not', () => {
    const fits = (wanted: string, country: string) =>
      checkIcp(readCriteria({ countries: [wanted] }), { country }).fits.length > 0;
    for (const country of ['U.S.', 'U.S.A.', 'US', 'usa', 'the United States', 'United States of America'])
      expect(fits('United States', country), country).toBe(true);
    for (const country of ['U.K.', 'UK', 'Great Britain', 'the United Kingdom'])
      expect(fits('United Kingdom', country), country).toBe(true);
    expect(fits('United Arab Emirates', 'UAE')).toBe(true);
    expect(fits('Netherlands', 'The Netherlands')).toBe(true);
    expect(fits('Netherlands', 'Holland')).toBe(true);
    expect(fits('Turkey', 'Türkiye')).toBe(true);
    expect(fits('Czech Republic', 'Czechia')).toBe(true);
    // Both ways: the vendor may have typed the short form.
    expect(fits('USA', 'United States')).toBe(true);
    // And never another country.
    expect(fits('United States', 'U.K.')).toBe(false);
    expect(fits('South Korea', 'North Korea')).toBe(false);
    expect(checkIcp(readCriteria({ countries: ['United States'] }), { country: 'U.K.' }).fails.length).toBe(1);
  });

  it('reads seniority only from roles that clearly state it', () => {
    expect(seniorityOf('VP of Sales')).toBe('VP');
    expect(seniorityOf('CTO')).toBe('C-suite');
    expect(seniorityOf('Sales Intern')).toBe('Intern / Trainee');
    expect(seniorityOf('Product Owner')).toBeNull();
    expect(seniorityOf('Partner Manager')).toBe('Manager');
    expect(seniorityOf('Growth person')).toBeNull();
  });

  it('checks company sizes and seniority exactly as the lists say (the bits they are checked with)', () => {
    const random = seededRandom(3);
    const subset = (options: readonly string[]) => options.filter(() => random() < 0.4);
    const roles = [
      'Founder',
      'Managing Partner',
      'CTO',
      'VP of Sales',
      'Director of IT',
      'Head of People',
      'Office Manager',
      'Senior Engineer',
      'Junior Analyst',
      'Executive Assistant',
      'Sales Intern',
      'Freelance designer',
      'Growth person',
    ];
    let checked = 0;
    for (let vendor = 0; vendor < 40; vendor++) {
      const employeeCount = subset(COMPANY_SIZES);
      const seniority = subset(SENIORITY_LEVELS);
      const criteria = readCriteria({ employeeCount, seniority })!;
      for (const companySize of [...COMPANY_SIZES, 'Unknown size'])
        for (const role of roles) {
          const { fits, fails } = checkIcp(criteria, { companySize, role });
          const level = seniorityOf(role);
          // The rules written plainly, with the lists themselves.
          const sizeFits = employeeCount.length > 0 && employeeCount.includes(companySize);
          const sizeFails = employeeCount.length > 0 && !employeeCount.includes(companySize);
          const levelFits = level !== null && seniority.length > 0 && seniority.includes(level);
          const levelFails =
            level !== null &&
            seniority.length > 0 &&
            !seniority.includes(level) &&
            (SENIORITY_LEVELS as readonly string[]).includes(level);
          expect(fits.includes(`Fits company size ${companySize}`)).toBe(sizeFits);
          expect(fails.some((reason) => reason.startsWith(`Company size ${companySize} is outside`))).toBe(sizeFails);
          expect(fits.includes(`Reaches ${level} contacts`)).toBe(levelFits);
          expect(fails.some((reason) => reason.startsWith(`Role ${role} is outside`))).toBe(levelFails);
          if (sizeFits || sizeFails || levelFits || levelFails) checked++;
        }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it("shares the same lists between vendors' criteria, and never one vendor's list with another's", () => {
    const criteria = (countries: string[], techStack: string[]) =>
      readCriteria({ countries, industries: ['Software'], techStack })!;
    const first = prepareCriteria(criteria(['Germany', 'France'], ['HubSpot', 'Salesforce']))!;
    const same = prepareCriteria(criteria(['Germany', 'France'], ['salesforce', 'HUBSPOT', 'Salesforce']))!;
    const other = prepareCriteria(criteria(['Germany'], ['HubSpot']))!;
    expect(same.countries).toBe(first.countries);
    expect(same.industries).toBe(first.industries);
    expect(same.techStack).toBe(first.techStack);
    expect(other.countries).not.toBe(first.countries);
    expect(other.techStack).not.toBe(first.techStack);

    const client = prepareClient({ country: 'France', industry: 'Software', integrations: ['Salesforce'] });
    expect(checkPrepared(first, client)).toEqual({
      fails: [],
      fits: ['Serves France', 'Targets Software', 'Works with Salesforce'],
      unknown: [],
    });
    expect(checkPrepared(same, client)).toEqual(checkPrepared(first, client));
    const refused = checkPrepared(other, client);
    expect(refused.fails).toEqual([expect.stringMatching(/^Does not serve France/)]);
    expect(refused.fits).not.toContain('Works with Salesforce');
  });

  it('writes bounty texts, leaving out disabled or unreadable milestones', () => {
    expect(
      bountySummaries({
        qualifiedLead: { enabled: true, type: 'flat', amount: 1500 },
        meetingHeld: { enabled: true, type: 'percentage_mrr', amount: 10, months: 1 },
        opportunityCreated: { enabled: true },
        closedWon: { enabled: true, type: 'percentage_arr', amount: 12.5 },
        retentionBonus: 'nonsense',
      }).map((b) => b.text),
    ).toEqual([
      '$1,500 at Qualified Lead',
      '10% of MRR for 1 month at Meeting Held',
      '12.5% of first-year ARR at Closed-Won',
    ]);
    expect(bountySummaries(null)).toEqual([]);
  });

  it('scores only documents sharing a term, keeps the best k, and forgets removed documents', () => {
    const index = new Bm25Index();
    index.upsert({ id: 'a', fields: [{ text: 'crm pipeline deals', weight: 1 }] });
    index.upsert({ id: 'b', fields: [{ text: 'crm', weight: 1 }] });
    index.upsert({ id: 'c', fields: [{ text: 'payroll benefits', weight: 1 }] });
    const query = new Map([
      ['crm', 1],
      ['pipeline', 1],
    ]);
    expect(index.search(query, 5).map((hit) => [hit.id, hit.matched])).toEqual([
      ['a', ['crm', 'pipeline']],
      ['b', ['crm']],
    ]);
    expect(index.search(query, 1).map((hit) => hit.id)).toEqual(['a']);
    index.remove('a');
    expect(index.search(query, 5).map((hit) => hit.id)).toEqual(['b']);
    index.upsert({ id: 'b', fields: [{ text: 'payroll', weight: 1 }] });
    expect(index.search(query, 5)).toEqual([]);
    expect(index.size).toBe(2);
  });

  it('ranks a program saved again with its new listing, also when its slot in the index goes to another program', () => {
    const matcher = new Matcher();
    const program = (id: string, name: string, vendorId: string | null): MatchProgramRecord => ({
      id,
      name,
      description: 'crm for sales teams',
      website: `https://${id}.example`,
      rewardDetails: '',
      vendorId,
      companyName: `${name} Inc`,
      isActive: true,
    });
    const vendor = (vendorId: string, name: string, countries: string[]) => ({
      vendorId,
      name,
      verified: true,
      criteria: { countries },
      bounties: null,
    });
    matcher.putVendor(vendor('v-de', 'Germany Only', ['Germany']));
    matcher.putVendor(vendor('v-fr', 'France Only', ['France']));
    matcher.putProgram(program('a', 'Alpha', 'v-de'));
    matcher.putProgram(program('b', 'Beta', null));
    const request = { need: 'crm', integrations: [], country: 'France', limit: 5 } as never;
    const shown = () => {
      const { candidates, excluded } = matcher.rank(request);
      return {
        candidates: candidates.map((c) => [c.program.id, c.program.name, c.companyName]),
        excluded: excluded.map((e) => e.programId),
      };
    };
    expect(shown()).toEqual({ candidates: [['b', 'Beta', 'Beta Inc']], excluded: ['a'] });
    const slotOfA = matcher.index.slotOf('a');
    // Renamed and moved to the vendor serving France.
    matcher.putProgram(program('a', 'Alpha Two', 'v-fr'));
    expect(shown()).toEqual({
      candidates: [
        ['a', 'Alpha Two', 'France Only'],
        ['b', 'Beta', 'Beta Inc'],
      ],
      excluded: [],
    });
    // Deactivated: its slot is freed and the next program saved takes it.
    matcher.putProgram({ ...program('a', 'Alpha Two', 'v-fr'), isActive: false });
    matcher.putProgram(program('c', 'Gamma', 'v-de'));
    expect(matcher.index.slotOf('c')).toBe(slotOfA);
    expect(shown()).toEqual({ candidates: [['b', 'Beta', 'Beta Inc']], excluded: ['c'] });
  });
});
