import { batched, prepared } from '@app/kit';
import type pg from 'pg';

/** A claim older than this is taken to be from a process that died mid-send. */
const STALE_CLAIM_SECONDS = 60;

/** The sending of one event's email, claimed before it is sent. */
export interface EmailClaim {
  eventId: string;
  kind: string;
  recipient: string;
  subject: string;
}

/**
 * Claims the sendings of events' emails in one statement: for each, a new row, or one whose last attempt
 * failed, or one whose claim went stale. Answers per claim, in order, the row's id, or null when another
 * delivery holds it or it was sent. The events must be distinct (ON CONFLICT DO UPDATE changes a row once
 * per statement: `batched`'s key).
 */
async function claimAll(pool: pg.Pool, claims: EmailClaim[]): Promise<Array<string | null>> {
  const { rows } = await pool.query<{ id: string | null }>(
    prepared(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY
             AS c(event_id, kind, recipient, subject, n)),
       claimed AS (
         INSERT INTO sent_emails (id, event_id, kind, recipient, subject, status)
         SELECT gen_random_uuid(), event_id, kind, recipient, subject, 'sending' FROM input
         ON CONFLICT (event_id) DO UPDATE SET status = 'sending', attempts = sent_emails.attempts + 1, claimed_at = now()
           WHERE sent_emails.status = 'failed'
              OR (sent_emails.status = 'sending' AND sent_emails.claimed_at < now() - make_interval(secs => $5))
         RETURNING id, event_id)
       SELECT k.id FROM input c LEFT JOIN claimed k ON k.event_id = c.event_id ORDER BY c.n`,
      [
        claims.map((claim) => claim.eventId),
        claims.map((claim) => claim.kind),
        claims.map((claim) => claim.recipient),
        claims.map((claim) => claim.subject),
        STALE_CLAIM_SECONDS,
      ],
    ),
  );
  return rows.map((row) => row.id);
}

/** Marks the claimed rows sent (at the time of the mark: a batch waits for at most one statement before it). */
async function markAllSent(pool: pg.Pool, ids: string[]): Promise<void[]> {
  await pool.query(
    prepared("UPDATE sent_emails SET status = 'sent', sent_at = now() WHERE id = ANY($1::uuid[])", [ids]),
  );
  return ids.map(() => undefined);
}

/**
 * Data access of the mail service: the `sent_emails` record, one row per event that asks for an email,
 * which is the guard that sends each email once. Plain SQL on the service's pg pool: two statements per
 * email (claim, mark) on the pipeline's path, each shared by the emails claimed or marked at the same time
 * (`batched`: one round trip and commit for many, bench:pipeline).
 */
export const sentEmails = (pool: pg.Pool) => {
  const claim = batched({
    name: 'mail.email_claim',
    runBatch: (claims: EmailClaim[]) => claimAll(pool, claims),
    runOne: async (one) => (await claimAll(pool, [one]))[0] ?? null,
    key: (one) => one.eventId,
  });
  const markSent = batched({
    name: 'mail.email_mark',
    runBatch: (ids: string[]) => markAllSent(pool, ids),
    runOne: async (id) => void (await markAllSent(pool, [id])),
    key: (id) => id,
  });

  return {
    claim,

    async isSent(eventId: string): Promise<boolean> {
      const { rows } = await pool.query<{ status: string }>(
        prepared('SELECT status FROM sent_emails WHERE event_id = $1::uuid', [eventId]),
      );
      return rows[0]?.status === 'sent';
    },

    markSent: (id: string): Promise<void> => markSent(id),

    async markFailed(id: string, error: unknown): Promise<void> {
      await pool.query("UPDATE sent_emails SET status = 'failed', last_error = $2 WHERE id = $1::uuid", [
        id,
        String(error).slice(0, 1000),
      ]);
    },
  };
};

export type SentEmails = ReturnType<typeof sentEmails>;
