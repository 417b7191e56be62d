import { randomUUID } from 'node:crypto';
import { hasForbiddenCharacters, ProgramAnalysis } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attacksOn,
  changedTables,
  operationsOf,
  runAttacks,
  schemaSnapshot,
  type Attack,
  type Outcome,
} from '../../referrals/test/attack-cases.ts';
import { deliver, multipart, programInput, startPrograms, testUser, vendorSaved, type TestContext } from './helpers.ts';

/**
 * Validation attacks on every operation of the programs service, generated from the contracts
 * (services/referrals/test/attack-cases.ts): each bad request is a clean 4xx `{ message, code }`, never a
 * 5xx, and leaves every table (and the document bucket) as it was.
 */

let ctx: TestContext;
const admin = testUser(true);
const member = testUser(false, 'member');
const vendorId = randomUUID();
let programId: string;

const VOLATILE = { outbox_events: ['published_at', 'attempts', 'last_error', 'next_attempt_at'] };
const snapshot = async () => ({
  ...(await schemaSnapshot(ctx.sql, 'programs', VOLATILE)),
  bucket: (await ctx.objectKeys()).sort().join(','),
});

beforeAll(async () => {
  ctx = await startPrograms();
  await deliver(ctx, vendorSaved({ vendorId, members: [member] }));
  const created = await ctx.service.app.inject({
    method: 'POST',
    url: '/api/programs',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    payload: programInput({ vendorId }),
  });
  expect(created.statusCode, created.body).toBe(201);
  programId = created.json<{ id: string }>().id;
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

const examples: Record<string, unknown> = {
  createProgram: { ...programInput(), vendorId, isActive: true },
  updateProgram: { ...programInput({ name: 'Renamed' }), isActive: false, vendorId },
};

/** Uploads that are no document the service can read: never stored. */
function uploadAttacks(headers: Record<string, string>): Attack[] {
  const url = '/api/analyze-referral-program';
  const send = (what: string, payload: string | Buffer, type: string): Attack => ({
    what,
    request: { method: 'POST', url, headers: { ...headers, 'content-type': type }, payload },
    mustRefuse: true,
  });
  const file = (name: string, bytes: Buffer, field?: string) => {
    const body = multipart({ name, bytes, field });
    return send(
      `upload: ${name.slice(0, 30)} (${bytes.length} bytes, field ${field ?? 'file'})`,
      body.payload,
      body.headers['content-type'],
    );
  };
  const none = multipart(null, { note: 'x' });
  return [
    send('upload: JSON instead of a file', '{"fileName":"a.pdf","fileType":"pdf"}', 'application/json'),
    send('upload: text/plain', 'hello', 'text/plain'),
    send('upload: multipart without boundary', 'x', 'multipart/form-data'),
    send(
      'upload: multipart cut short',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc',
      'multipart/form-data; boundary=b',
    ),
    send('upload: no file part', none.payload, none.headers['content-type']),
    file('empty.txt', Buffer.alloc(0)),
    file('program.txt', Buffer.from('Partners earn 20%'), 'document'),
    file('program.exe', Buffer.from('MZ\u0090\u0000\u0003binary')),
    file('nul.txt', Buffer.alloc(64)),
    file('broken.pdf', Buffer.from('%PDF-1.7\nbroken', 'latin1')),
    file(
      'broken.png',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('broken')]),
    ),
    file('latin1.txt', Buffer.from('Programme de parrainage: 20 % \xe9t\xe9', 'latin1')),
  ];
}

describe('every operation of the programs service, attacked from its contract', () => {
  it('covers every operation the gateway routes to the service', () => {
    expect(
      operationsOf('programs')
        .map((op) => op.id)
        .sort(),
    ).toEqual(['analyzeProgramDocument', 'createProgram', 'listPrograms', 'updateProgram'].sort());
  });

  for (const op of operationsOf('programs')) {
    it(`${op.method} ${op.path} (${op.id}): a clean 4xx for every bad input, nothing written`, async () => {
      const headers = op.access === 'admin' || op.id !== 'updateProgram' ? admin.headers : member.headers;
      const params: Record<string, string> = op.path.includes('{id}') ? { id: programId } : {};
      const attacks =
        op.id === 'analyzeProgramDocument'
          ? uploadAttacks(headers)
          : attacksOn(op, { example: examples[op.id], params, headers });
      expect(attacks.length).toBeGreaterThan(op.body ? 50 : 5);

      const before = await snapshot();
      const first = await runAttacks(
        ctx.service.app,
        op,
        attacks.filter((a) => a.mustRefuse),
      );
      const changed = changedTables(before, await snapshot());
      const rest = await runAttacks(
        ctx.service.app,
        op,
        attacks.filter((a) => !a.mustRefuse),
      );

      const problems: Outcome[] = [...first.problems, ...rest.problems];
      for (const p of problems) console.log(`attack problem: ${p.op}, ${p.what}: ${p.problem.slice(0, 300)}`);
      expect(problems.slice(0, 15), `${problems.length} problems`).toEqual([]);
      expect(changed, 'tables changed by refused requests').toEqual([]);
    }, 120_000);
  }
});

describe('bugs the attacks found', () => {
  it('a text document with control and format characters is analyzed into fields the program form can save', async () => {
    const document = [
      'Acme Partner\u202e Program\u0007',
      '',
      'Acme sells \u001b[31maccounting software\u200b to startups.\fVisit https://acme.example.com/partners',
      '',
      'Rewards: partners earn 20% of the first-year contract value,\u2028paid quarterly.\u0001',
    ].join('\n');
    const upload = multipart({ name: 'program.txt', bytes: Buffer.from(document), type: 'text/plain' });
    const analyzed = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/analyze-referral-program',
      headers: { ...admin.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(analyzed.statusCode, analyzed.body).toBe(200);
    const analysis = ProgramAnalysis.parse(analyzed.json());
    for (const field of ['programName', 'description', 'website', 'rewardDetails'] as const)
      expect(hasForbiddenCharacters(analysis[field], true), `${field}: ${JSON.stringify(analysis[field])}`).toBe(false);
    expect(analysis.rewardDetails).toContain('20% of the first-year contract value,\npaid quarterly.');

    // What the review form sends after an analysis is saved as it was filled.
    const saved = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/programs',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: {
        name: analysis.programName,
        description: analysis.description || 'Described in the document',
        website: analysis.website || 'https://acme.example.com/partners',
        rewardDetails: analysis.rewardDetails,
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
  });
});
