import { LeadCriteria, MatchResponse } from '@app/contracts';
import { freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bountiesSaved, leadCriteriaSaved, programSaved, vendorSaved } from './match-support.ts';
import { dropDatabase, json, signedIn, startAi, type RunningAi } from './support.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let ai: RunningAi;
let sql: pg.Pool;

const pipedrive = crypto.randomUUID();
const teamleader = crypto.randomUUID();
const crm = programSaved({
  name: 'Pipedrive Partner Program',
  description: 'Sales CRM with pipeline management, deal tracking and email sync for small sales teams.',
  rewardDetails: '20% recurring commission for 12 months.',
  vendorId: pipedrive,
  companyName: 'Pipedrive, Inc.',
});
const payroll = programSaved({
  name: 'Gusto Referral Program',
  description: 'Payroll, benefits and HR for small businesses, with automated tax filing.',
  rewardDetails: '$300 per referred company.',
  companyName: 'Gusto Inc',
});
const euCrm = programSaved({
  name: 'Teamleader Partners',
  description: 'CRM, invoicing and project management for European agencies.',
  rewardDetails: '15% of first-year ARR.',
  vendorId: teamleader,
  companyName: 'Teamleader GmbH',
});
const inactive = programSaved({
  name: 'Retired CRM Program',
  description: 'CRM for sales teams with pipeline management.',
  companyName: 'Oldco',
  isActive: false,
});

async function match(payload: unknown, headers: Record<string, string> = signedIn()) {
  return ai.service.app.inject({
    method: 'POST',
    url: '/api/match',
    headers: { ...json, ...headers },
    payload: payload as object,
  });
}
async function matched(payload: Record<string, unknown>) {
  const response = await match(payload);
  expect(response.statusCode, response.body).toBe(200);
  return MatchResponse.parse(response.json());
}

beforeAll(async () => {
  db = await freshDatabase();
  ai = await startAi(db.url);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  for (const event of [crm, payroll, euCrm, inactive]) await ai.bus.publish(event);
  // Programs name their vendor by id; the vendor's workspace name is the one shown.
  const vendors = [vendorSaved(pipedrive, { name: 'Pipedrive' }), vendorSaved(teamleader, { name: 'Teamleader' })];
  const criteria = [
    leadCriteriaSaved(teamleader, {
      countries: ['Belgium', 'Netherlands', 'Germany'],
      employeeCount: ['11-50', '51-200'],
      industries: ['Marketing and Advertising'],
    }),
    leadCriteriaSaved(pipedrive, {
      countries: ['United States', 'Germany'],
      seniority: ['Manager', 'Director', 'VP'],
      jobTitles: ['Head of Sales'],
      techStack: ['Gmail'],
    }),
  ];
  const bounties = [
    bountiesSaved(pipedrive, {
      qualifiedLead: { enabled: true, type: 'flat', amount: 50 },
      meetingHeld: { enabled: true, type: 'percentage_mrr', amount: 10, months: 12 },
      closedWon: { enabled: true, type: 'flat', amount: 500 },
      retentionBonus: { enabled: false, type: 'flat', amount: 999 },
    }),
    bountiesSaved(teamleader, { closedWon: { enabled: true, type: 'percentage_arr', amount: 20 } }),
  ];
  for (const event of [...vendors, ...criteria, ...bounties]) await ai.bus.publish(event);
  await ai.handled('ai-match-programs', crm, payroll, euCrm, inactive);
  await ai.handled('ai-match-vendors', ...vendors);
  await ai.handled('ai-match-lead-criteria', ...criteria);
  await ai.handled('ai-match-bounties', ...bounties);
});
afterAll(async () => {
  await ai?.close();
  await sql?.end();
  await dropDatabase(db);
});

describe('POST /api/match, local ranking', () => {
  it('ranks the programs that fit the need first, with the reasons', async () => {
    const body = await matched({ need: 'Our client needs a CRM to manage their sales pipeline' });
    expect(body.rankedBy).toBe('local');
    expect(body.matches.map((m) => m.programName)).toEqual(['Pipedrive Partner Program', 'Teamleader Partners']);
    expect(body.matches[0]!.fit).toBeGreaterThan(body.matches[1]!.fit);
    expect(body.matches[0]!.reasons[0]).toMatch(/^Mentions your need: .*"CRM"/);
    const payrollNeed = await matched({ need: 'payroll and benefits for a 30 person company' });
    expect(payrollNeed.matches.map((m) => m.programName)).toEqual(['Gusto Referral Program']);
  });

  it('never offers an inactive program', async () => {
    const body = await matched({ need: 'CRM pipeline management for sales teams', limit: 20 });
    expect(body.matches.map((m) => m.programId)).not.toContain(inactive.payload.programId);
    expect(body.excluded.map((m) => m.programId)).not.toContain(inactive.payload.programId);
  });

  it('leaves out programs whose ICP the client clearly fails, with the reason', async () => {
    const body = await matched({ need: 'CRM for the sales team', country: 'France', companySize: '1,001-5,000' });
    expect(body.matches).toEqual([]);
    const teamleader = body.excluded.find((e) => e.programId === euCrm.payload.programId);
    expect(teamleader?.reasons).toEqual([
      'Does not serve France (serves Belgium, Netherlands, Germany)',
      'Company size 1,001-5,000 is outside 11-50, 51-200',
    ]);
    expect(body.excluded.find((e) => e.programId === crm.payload.programId)?.reasons).toEqual([
      'Does not serve France (serves United States, Germany)',
    ]);
  });

  it('excludes on industry and a clearly stated seniority', async () => {
    const body = await matched({
      need: 'CRM for the sales team',
      industry: 'Hospital & Health Care',
      role: 'Sales Intern',
    });
    expect(body.excluded.find((e) => e.programId === euCrm.payload.programId)?.reasons).toEqual([
      'Industry Hospital & Health Care is not targeted (Marketing and Advertising)',
    ]);
    expect(body.excluded.find((e) => e.programId === crm.payload.programId)?.reasons).toEqual([
      'Role Sales Intern is outside the seniority Manager, Director, VP',
    ]);
  });

  it("keeps a program whose ICP lists the contact's exact job title, whatever its seniority (issue 12)", async () => {
    // 'Head of Sales' reads as seniority Head, which Pipedrive's seniority list leaves out; the vendor named the title.
    const body = await matched({ need: 'CRM for the sales team', role: 'Head of Sales' });
    expect(body.excluded.map((e) => e.programId)).not.toContain(crm.payload.programId);
    const pipedriveMatch = body.matches.find((m) => m.programId === crm.payload.programId);
    expect(pipedriveMatch?.reasons).toContain('Targets Head of Sales');
    // Another Head-level role the vendor did not list is still outside its seniority.
    const other = await matched({ need: 'CRM for the sales team', role: 'Head of Marketing' });
    expect(other.excluded.find((e) => e.programId === crm.payload.programId)?.reasons).toEqual([
      'Role Head of Marketing is outside the seniority Manager, Director, VP',
    ]);
  });

  it('never excludes on unknown facts, and raises the fit on matching ones', async () => {
    const unknown = await matched({ need: 'CRM for the sales team', role: 'Growth person' });
    expect(unknown.excluded).toEqual([]);
    const fitting = await matched({
      need: 'CRM for the sales team',
      country: 'Germany',
      companySize: '51-200',
      industry: 'Marketing',
      role: 'Sales Director',
      integrations: ['Gmail'],
    });
    expect(fitting.excluded).toEqual([]);
    const teamleader = fitting.matches.find((m) => m.programId === euCrm.payload.programId)!;
    expect(teamleader.reasons).toEqual(
      expect.arrayContaining(['Serves Germany', 'Fits company size 51-200', 'Targets Marketing and Advertising']),
    );
    expect(fitting.matches.find((m) => m.programId === crm.payload.programId)!.reasons).toEqual(
      expect.arrayContaining(['Serves Germany', 'Works with Gmail']),
    );
    const plain = unknown.matches.find((m) => m.programId === euCrm.payload.programId)!;
    expect(teamleader.fit).toBeGreaterThan(plain.fit);
  });

  it('shows the enabled bounties as text and the Starter share', async () => {
    const body = await matched({ need: 'CRM for sales pipeline' });
    const pipedriveMatch = body.matches.find((m) => m.programId === crm.payload.programId)!;
    expect(pipedriveMatch).toMatchObject({ companyName: 'Pipedrive', vendorId: pipedrive });
    expect(pipedriveMatch.reward).toEqual({
      rewardDetails: '20% recurring commission for 12 months.',
      referrerShare: 0.7,
      bounties: [
        {
          milestone: 'qualifiedLead',
          label: 'Qualified Lead',
          type: 'flat',
          amount: 50,
          months: null,
          text: '$50 at Qualified Lead',
        },
        {
          milestone: 'meetingHeld',
          label: 'Meeting Held',
          type: 'percentage_mrr',
          amount: 10,
          months: 12,
          text: '10% of MRR for 12 months at Meeting Held',
        },
        {
          milestone: 'closedWon',
          label: 'Closed-Won',
          type: 'flat',
          amount: 500,
          months: null,
          text: '$500 at Closed-Won',
        },
      ],
    });
    const teamleader = body.matches.find((m) => m.programId === euCrm.payload.programId)!;
    expect(teamleader.reward.bounties.map((b) => b.text)).toEqual(['20% of first-year ARR at Closed-Won']);
    expect(body.matches.find((m) => m.programId === payroll.payload.programId)).toBeUndefined();
  });

  it('favours early flat bounties when the need is urgent', async () => {
    const calm = await matched({ need: 'CRM', urgency: 'low' });
    const urgent = await matched({ need: 'CRM', urgency: 'high' });
    const fitOf = (body: MatchResponse) => body.matches.find((m) => m.programId === crm.payload.programId)!.fit;
    expect(fitOf(urgent)).toBe(fitOf(calm) + 5);
    expect(urgent.matches.find((m) => m.programId === crm.payload.programId)!.reasons).toContain(
      'Pays early in the deal, suited to an urgent need',
    );
  });

  it('follows program changes: deactivated, renamed, reactivated; a late older event changes nothing', async () => {
    const program = programSaved({
      name: 'Zebra Helpdesk Partners',
      description: 'Helpdesk ticketing for support teams.',
    });
    const helpdesk = async () => (await matched({ need: 'helpdesk ticketing' })).matches.map((m) => m.programName);
    const deliver = async (event: typeof program) => {
      await ai.bus.publish(event);
      await ai.handled('ai-match-programs', event);
    };
    await deliver(program);
    expect(await helpdesk()).toEqual(['Zebra Helpdesk Partners']);
    const later = new Date(Date.now() + 1000);
    await deliver(programSaved({ ...program.payload, isActive: false }, later));
    expect(await helpdesk()).toEqual([]);
    await deliver(programSaved({ ...program.payload, isActive: true }, new Date(Date.now() - 60_000)));
    expect(await helpdesk()).toEqual([]);
    await deliver(
      programSaved({ ...program.payload, name: 'Zebra Support Partners', isActive: true }, new Date(Date.now() + 2000)),
    );
    expect(await helpdesk()).toEqual(['Zebra Support Partners']);
  });

  it('handles each event once, however often it is delivered', async () => {
    const event = programSaved({ name: 'Once Program', description: 'Unique quokka analytics.' });
    await ai.bus.publish(event);
    await Promise.all([ai.bus.publish(event), ai.bus.publish(event)]);
    const once = crypto.randomUUID();
    const criteria = leadCriteriaSaved(once, { countries: ['Germany'] });
    await ai.bus.publish(criteria);
    await ai.bus.publish(criteria);
    await ai.handled('ai-match-programs', event);
    await ai.handled('ai-match-lead-criteria', criteria);
    const { rows } = await sql.query(
      'SELECT subscriber, count(*)::int AS n FROM ai.processed_events WHERE event_id = ANY($1::text[]) GROUP BY subscriber ORDER BY subscriber',
      [[event.id, criteria.id]],
    );
    expect(rows).toEqual([
      { subscriber: 'ai-match-lead-criteria', n: 1 },
      { subscriber: 'ai-match-programs', n: 1 },
    ]);
    const programs = await sql.query('SELECT name, vendor_id FROM ai.match_programs WHERE id = $1', [
      event.payload.programId,
    ]);
    expect(programs.rows).toEqual([{ name: 'Once Program', vendor_id: null }]);
    const vendors = await sql.query(
      'SELECT criteria, criteria_version, verified FROM ai.match_vendors WHERE vendor_id = $1',
      [once],
    );
    expect(vendors.rows).toEqual([
      { criteria: LeadCriteria.parse({ countries: ['Germany'] }), criteria_version: 1, verified: false },
    ]);
  });

  it('serves what another instance received, from the read model', async () => {
    const other = await startAi(db.url);
    try {
      const body = MatchResponse.parse(
        (
          await other.service.app.inject({
            method: 'POST',
            url: '/api/match',
            headers: { ...json, ...signedIn() },
            payload: { need: 'payroll benefits' },
          })
        ).json(),
      );
      expect(body.matches.map((m) => m.programName)).toEqual(['Gusto Referral Program']);
    } finally {
      await other.close();
    }
  });
});

describe('POST /api/match, refused requests', () => {
  it('answers 401 without a signed-in user', async () => {
    const response = await match({ need: 'CRM' }, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('answers 400 with the contract message for bad input', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "Please describe your client's need"],
      [{ need: '   ' }, "Please describe your client's need"],
      [{ need: 'CRM', companySize: '3 people' }, 'Unknown company size'],
      [{ need: 'CRM', urgency: 'yesterday' }, 'Unknown urgency'],
      [{ need: 'x'.repeat(2001) }, 'Must be at most 2000 characters'],
    ];
    for (const [payload, message] of cases) {
      const response = await match(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await match({ need: 'CRM', extra: 1 })).statusCode).toBe(400);
  });
});

describe('POST /api/search with programs', () => {
  it('answers an active program by its name, and no longer once it is inactive', async () => {
    const program = programSaved({
      name: 'Quasarly Referral Program',
      description: 'Quasar observation tooling.',
      companyName: 'Quasarly Ltd',
      website: 'https://quasarly.example',
    });
    await ai.bus.publish(program);
    await ai.handled('ai-match-programs', program);
    const ask = async () =>
      (
        await ai.service.app.inject({
          method: 'POST',
          url: '/api/search',
          headers: { ...json, ...signedIn() },
          payload: { query: 'Quasarly Referral Program' },
        })
      ).json().choices[0].message.content as string;
    expect(await ask()).toContain('Product: Quasarly Referral Program');
    expect(await ask()).toContain('Company: Quasarly Ltd');
    const inactive = programSaved({ ...program.payload, isActive: false }, new Date(Date.now() + 1000));
    await ai.bus.publish(inactive);
    await ai.handled('ai-match-programs', inactive);
    expect(await ask()).not.toContain('Quasarly Referral Program');
  });
});
