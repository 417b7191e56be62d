import { eventually, freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateDraft } from '../src/drafts/template.ts';
import { internal, json, referralCreated, startAi, type RunningAi, dropDatabase } from './support.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let ai: RunningAi;
let sql: pg.Pool;

beforeAll(async () => {
  db = await freshDatabase();
  ai = await startAi(db.url);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  await ai?.close();
  await sql?.end();
  await dropDatabase(db);
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('intro draft for referral.created, without a language model', () => {
  it('publishes a template draft through the outbox, to the referred person with the referrer in Cc', async () => {
    const event = referralCreated();
    await ai.bus.publish(event);
    const [draft] = await ai.draftsFor(event.payload.referralId);
    expect(draft).toMatchObject({
      referralId: event.payload.referralId,
      source: 'template',
      subject: 'Introduction: Grace, meet Slack',
      recipients: { to: ['grace@navy.example'], cc: ['ada@engines.example'], bcc: [] },
    });
    expect(draft!.body).toBe(
      [
        'Hi Grace,',
        "As we discussed, I'd like to introduce you to Slack.",
        'In short: Team messaging app with channels, huddles and integrations.',
        'Why I thought of you: Her team is drowning in email threads and needs channels.',
        "If it sounds interesting, just reply to this email and I'll make sure you're connected with the right person.",
        'Best regards,\nAda Lovelace\nEngines Ltd',
      ].join('\n\n'),
    );
    // The relay marks the row published once the bus accepted it (just after the subscriber above ran).
    await eventually(
      async () => {
        const { rows } = await sql.query(
          "SELECT published_at IS NOT NULL AS published FROM ai.outbox_events WHERE name = 'referral.draft_generated' AND payload->>'referralId' = $1",
          [String(event.payload.referralId)],
        );
        return rows.length === 1 && rows[0].published === true;
      },
      5000,
      'the outbox row marked published',
    );
  });

  it('publishes one draft when referral.created is delivered twice, in turn or at once', async () => {
    const event = referralCreated();
    await ai.bus.publish(event);
    await ai.bus.publish(event);
    const concurrent = referralCreated();
    await Promise.all([ai.bus.publish(concurrent), ai.bus.publish(concurrent), ai.bus.publish(concurrent)]);
    await ai.draftsFor(event.payload.referralId);
    await ai.draftsFor(concurrent.payload.referralId);
    await settle();
    expect(ai.drafts.filter((d) => d.payload.referralId === event.payload.referralId)).toHaveLength(1);
    expect(ai.drafts.filter((d) => d.payload.referralId === concurrent.payload.referralId)).toHaveLength(1);
    const { rows } = await sql.query(
      'SELECT count(*)::int AS n FROM ai.processed_events WHERE event_id = ANY($1::text[])',
      [[event.id, concurrent.id]],
    );
    expect(rows[0].n).toBe(2);
  });

  it('carries the request id of the referral into the draft event', async () => {
    const event = referralCreated();
    await ai.bus.publish(event);
    await ai.draftsFor(event.payload.referralId);
    expect(ai.drafts.find((d) => d.payload.referralId === event.payload.referralId)?.requestId).toBe('req-test');
  });
});

describe('the intro template', () => {
  const base = referralCreated().payload;

  it('writes a softer opener when the referred person does not expect the intro', () => {
    const draft = templateDraft({ ...base, isReferralAware: false });
    expect(draft.body).toContain('I recently came across Slack and thought of you straight away');
    expect(draft.body).not.toContain('As we discussed');
    expect(draft.subject).toBe("Ada thought you'd like Slack");
  });

  it("leaves the referrer's name, company and address out when it may not be used", () => {
    const aware = templateDraft({ ...base, canUseReferrerName: false });
    const unaware = templateDraft({ ...base, canUseReferrerName: false, isReferralAware: false });
    for (const draft of [aware, unaware]) {
      expect(draft.body + draft.subject).not.toMatch(/Ada|Lovelace|Engines/);
      expect(draft.body).toContain('Why they thought of you: Her team is drowning');
      // Sent by Referral Hub for the referrer: never in the vendor's name.
      expect(draft.body).toMatch(/Best regards,\nReferral Hub$/);
      expect(draft.body).not.toMatch(/Slack team$/);
      expect(draft.body).toContain("we'll put you in touch with the Slack team.");
    }
    expect(aware.body).toContain('Following your recent conversation with someone in your network');
    expect(unaware.body).toContain('Someone in your network thought Slack could be useful to you');
    expect(aware.subject).toBe('An introduction to Slack');
  });

  it("names the vendor when it is not in the product's name, and skips unknown facts", () => {
    const draft = templateDraft({
      ...base,
      project: {
        ...base.project,
        productName: 'Sales Hub',
        companyName: 'HubSpot, Inc.',
        description: 'No description available',
      },
    });
    expect(draft.body).toContain('introduce you to Sales Hub from HubSpot.');
    expect(draft.body).not.toContain('In short');
  });

  it('keeps within the subject and body limits whatever the input', () => {
    const draft = templateDraft({
      ...base,
      reason: 'r'.repeat(30_000),
      project: { ...base.project, productName: 'P'.repeat(400) },
    });
    expect(draft.subject.length).toBeLessThanOrEqual(300);
    expect(draft.body.length).toBeLessThanOrEqual(20_000);
  });
});

describe('POST /internal/referral-program without a language model', () => {
  it('answers null: the referrals service then says there is no program it knows', async () => {
    const response = await ai.service.app.inject({
      method: 'POST',
      url: '/internal/referral-program',
      headers: { ...json, ...internal() },
      payload: { productName: 'Slack', companyName: 'Slack Technologies, LLC', website: null },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ referralProgram: null });
  });
});
