import type { PrismaClient } from './generated/prisma/client.ts';

/** A claim older than this is taken to be from a process that died mid-send. */
const STALE_CLAIM_SECONDS = 60;

/**
 * Data access of the mail service: the `sent_emails` record, one row per event that asks for an email,
 * which is the guard that sends each email once.
 */
export const sentEmails = (prisma: PrismaClient) => ({
  /**
   * Claims the sending of an event's email: a new row, or one whose last attempt failed, or one whose
   * claim went stale. Answers the row's id, or null when another delivery holds it or it was sent.
   */
  async claim(claim: { eventId: string; kind: string; recipient: string; subject: string }): Promise<string | null> {
    const claimed = await prisma.$queryRaw<Array<{ id: string }>>`
      INSERT INTO sent_emails (id, event_id, kind, recipient, subject, status)
      VALUES (gen_random_uuid(), ${claim.eventId}::uuid, ${claim.kind}, ${claim.recipient}, ${claim.subject}, 'sending')
      ON CONFLICT (event_id) DO UPDATE SET status = 'sending', attempts = sent_emails.attempts + 1, claimed_at = now()
        WHERE sent_emails.status = 'failed'
           OR (sent_emails.status = 'sending' AND sent_emails.claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
      RETURNING id`;
    return claimed[0]?.id ?? null;
  },

  async isSent(eventId: string): Promise<boolean> {
    const existing = await prisma.sentEmail.findUnique({ where: { eventId }, select: { status: true } });
    return existing?.status === 'sent';
  },

  markSent: (id: string) => prisma.sentEmail.update({ where: { id }, data: { status: 'sent', sentAt: new Date() } }),

  markFailed: (id: string, error: unknown) =>
    prisma.sentEmail.update({ where: { id }, data: { status: 'failed', lastError: String(error).slice(0, 1000) } }),
});

export type SentEmails = ReturnType<typeof sentEmails>;
