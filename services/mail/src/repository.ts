import { prepared } from '@app/kit';
import type pg from 'pg';

/** A claim older than this is taken to be from a process that died mid-send. */
const STALE_CLAIM_SECONDS = 60;

/**
 * Data access of the mail service: the `sent_emails` record, one row per event that asks for an email,
 * which is the guard that sends each email once. Plain SQL on the service's pg pool: two statements per
 * email (claim, mark) on the pipeline's path (bench:pipeline).
 */
export const sentEmails = (pool: pg.Pool) => ({
  /**
   * Claims the sending of an event's email: a new row, or one whose last attempt failed, or one whose
   * claim went stale. Answers the row's id, or null when another delivery holds it or it was sent.
   */
  async claim(claim: { eventId: string; kind: string; recipient: string; subject: string }): Promise<string | null> {
    const { rows } = await pool.query<{ id: string }>(
      prepared(
        `INSERT INTO sent_emails (id, event_id, kind, recipient, subject, status)
       VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4, 'sending')
       ON CONFLICT (event_id) DO UPDATE SET status = 'sending', attempts = sent_emails.attempts + 1, claimed_at = now()
         WHERE sent_emails.status = 'failed'
            OR (sent_emails.status = 'sending' AND sent_emails.claimed_at < now() - make_interval(secs => $5))
       RETURNING id`,
        [claim.eventId, claim.kind, claim.recipient, claim.subject, STALE_CLAIM_SECONDS],
      ),
    );
    return rows[0]?.id ?? null;
  },

  async isSent(eventId: string): Promise<boolean> {
    const { rows } = await pool.query<{ status: string }>(
      prepared('SELECT status FROM sent_emails WHERE event_id = $1::uuid', [eventId]),
    );
    return rows[0]?.status === 'sent';
  },

  async markSent(id: string): Promise<void> {
    await pool.query(
      prepared("UPDATE sent_emails SET status = 'sent', sent_at = $2 WHERE id = $1::uuid", [id, new Date()]),
    );
  },

  async markFailed(id: string, error: unknown): Promise<void> {
    await pool.query("UPDATE sent_emails SET status = 'failed', last_error = $2 WHERE id = $1::uuid", [
      id,
      String(error).slice(0, 1000),
    ]);
  },
});

export type SentEmails = ReturnType<typeof sentEmails>;
