import { MatchResponse, type EventEnvelope } from '@app/contracts';
import { freshDatabase } from '@app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bountiesSaved, leadCriteriaSaved, programSaved, vendorSaved } from './match-support.ts';
import { dropDatabase, json, signedIn, startAi, type RunningAi } from './support.ts';

/**
 * Smart Match applies a vendor's ICP and bounties only while the vendor is verified, whatever order its
 * workspace, criteria and bounties arrive in; programs link to vendors by id, never by name.
 */

let db: Awaited<ReturnType<typeof freshDatabase>>;
let ai: RunningAi;

const SUBSCRIBERS: Record<string, string> = {
  'program.saved': 'ai-match-programs',
  'vendor.saved': 'ai-match-vendors',
  'lead_criteria.saved': 'ai-match-lead-criteria',
  'bounties.saved': 'ai-match-bounties',
};

/** Delivers events one after the other, each handled before the next is published. */
async function deliver(...events: EventEnvelope[]) {
  for (const event of events) {
    await ai.bus.publish(event);
    await ai.handled(SUBSCRIBERS[event.name]!, event);
  }
}

async function matched(payload: Record<string, unknown>) {
  const response = await ai.service.app.inject({
    method: 'POST',
    url: '/api/match',
    headers: { ...json, ...signedIn() },
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return MatchResponse.parse(response.json());
}

const GERMANY_ONLY = { countries: ['Germany'] };
const BOUNTY = { closedWon: { enabled: true, type: 'flat', amount: 750 } };

/** A vendor with one program about a made-up need word, so each test has its own matches. */
function vendorWithProgram(word: string) {
  const vendorId = crypto.randomUUID();
  const program = programSaved({
    name: `${word} Partners`,
    description: `${word} software for finance teams.`,
    vendorId,
    companyName: `${word} Hint Inc`,
  });
  const ask = async () => {
    const body = await matched({ need: `${word} software`, country: 'France' });
    const match = body.matches.find((m) => m.programId === program.payload.programId);
    const excluded = body.excluded.find((e) => e.programId === program.payload.programId);
    return { match, excluded };
  };
  return { vendorId, program, ask };
}

beforeAll(async () => {
  db = await freshDatabase();
  ai = await startAi(db.url);
});
afterAll(async () => {
  await ai?.close();
  await dropDatabase(db);
});

describe('Smart Match and vendor verification', () => {
  it("ignores an unverified vendor's ICP and bounties, and applies them once it is verified (criteria first)", async () => {
    const { vendorId, program, ask } = vendorWithProgram('Zorblax');
    await deliver(program, leadCriteriaSaved(vendorId, GERMANY_ONLY), bountiesSaved(vendorId, BOUNTY));

    // No vendor.saved yet: nobody verified it.
    let seen = await ask();
    expect(seen.excluded).toBeUndefined();
    expect(seen.match).toMatchObject({ companyName: 'Zorblax Hint Inc', vendorId: null });
    expect(seen.match?.reward.bounties).toEqual([]);

    await deliver(vendorSaved(vendorId, { version: 1, name: 'Zorblax Claim', verified: false }));
    seen = await ask();
    expect(seen.excluded).toBeUndefined();
    expect(seen.match).toMatchObject({ companyName: 'Zorblax Hint Inc', vendorId: null });
    expect(seen.match?.reward.bounties).toEqual([]);

    await deliver(vendorSaved(vendorId, { version: 2, name: 'Zorblax', verified: true }));
    seen = await ask();
    expect(seen.match).toBeUndefined();
    expect(seen.excluded?.reasons).toEqual(['Does not serve France (serves Germany)']);
    const germany = (await matched({ need: 'Zorblax software', country: 'Germany' })).matches.find(
      (m) => m.programId === program.payload.programId,
    );
    expect(germany).toMatchObject({ companyName: 'Zorblax', vendorId });
    expect(germany?.reward.bounties.map((b) => b.text)).toEqual(['$750 at Closed-Won']);
  });

  it('applies them whichever arrives first (verification first), and keeps the highest version of each', async () => {
    const { vendorId, program, ask } = vendorWithProgram('Quibbit');
    await deliver(vendorSaved(vendorId, { version: 5, name: 'Quibbit', verified: true }), program);
    expect((await ask()).match).toMatchObject({ companyName: 'Quibbit', vendorId });

    await deliver(leadCriteriaSaved(vendorId, GERMANY_ONLY, 2));
    expect((await ask()).excluded?.reasons).toEqual(['Does not serve France (serves Germany)']);

    // An older criteria version arriving late changes nothing; a newer one does.
    await deliver(leadCriteriaSaved(vendorId, { countries: ['France'] }, 1));
    expect((await ask()).excluded).toBeDefined();
    await deliver(leadCriteriaSaved(vendorId, { countries: ['France', 'Spain'] }, 3));
    expect((await ask()).match?.reasons).toContain('Serves France');

    // An older, unverified snapshot arriving late does not unverify it.
    await deliver(vendorSaved(vendorId, { version: 4, name: 'Quibbit Claim', verified: false }));
    expect((await ask()).match).toMatchObject({ companyName: 'Quibbit', vendorId });

    // Verification lost (a newer snapshot): the ICP no longer applies, the vendor is nobody again.
    await deliver(leadCriteriaSaved(vendorId, GERMANY_ONLY, 4), bountiesSaved(vendorId, BOUNTY, 1));
    expect((await ask()).excluded).toBeDefined();
    await deliver(vendorSaved(vendorId, { version: 6, name: 'Quibbit', verified: false }));
    const unverified = await ask();
    expect(unverified.excluded).toBeUndefined();
    expect(unverified.match).toMatchObject({ companyName: 'Quibbit Hint Inc', vendorId: null });
    expect(unverified.match?.reward.bounties).toEqual([]);
  });

  it('never links a program to a vendor by name', async () => {
    const vendorId = crypto.randomUUID();
    await deliver(
      vendorSaved(vendorId, { name: 'Frobnik', companyKey: 'frobnik', verified: true }),
      leadCriteriaSaved(vendorId, GERMANY_ONLY),
      bountiesSaved(vendorId, BOUNTY),
    );
    const unlinked = programSaved({
      name: 'Frobnik Partners',
      description: 'Frobnik software for finance teams.',
      companyName: 'Frobnik',
    });
    await deliver(unlinked);
    const body = await matched({ need: 'Frobnik software', country: 'France' });
    const match = body.matches.find((m) => m.programId === unlinked.payload.programId);
    expect(match).toMatchObject({ companyName: 'Frobnik', vendorId: null });
    expect(match?.reward.bounties).toEqual([]);
    expect(body.excluded).toEqual([]);
  });

  it("names a verified vendor's programs after its workspace in the search too", async () => {
    const { vendorId, program } = vendorWithProgram('Plonkify');
    await deliver(program);
    const ask = async () =>
      (
        await ai.service.app.inject({
          method: 'POST',
          url: '/api/search',
          headers: { ...json, ...signedIn() },
          payload: { query: 'Plonkify Partners' },
        })
      ).json().choices[0].message.content as string;
    expect(await ask()).toContain('Company: Plonkify Hint Inc');
    await deliver(vendorSaved(vendorId, { name: 'Plonkify Workspace', verified: false }));
    expect(await ask()).toContain('Company: Plonkify Hint Inc');
    await deliver(vendorSaved(vendorId, { version: 2, name: 'Plonkify Workspace', verified: true }));
    expect(await ask()).toContain('Company: Plonkify Workspace');
  });

  it('serves another instance the vendors it received, from the read model', async () => {
    const { vendorId, program } = vendorWithProgram('Wibblo');
    await deliver(program, vendorSaved(vendorId, { name: 'Wibblo' }), leadCriteriaSaved(vendorId, GERMANY_ONLY));
    const other = await startAi(db.url);
    try {
      const response = await other.service.app.inject({
        method: 'POST',
        url: '/api/match',
        headers: { ...json, ...signedIn() },
        payload: { need: 'Wibblo software', country: 'France' },
      });
      const body = MatchResponse.parse(response.json());
      expect(body.excluded.map((e) => e.programId)).toEqual([program.payload.programId]);
    } finally {
      await other.close();
    }
  });
});
