import type { Transporter } from 'nodemailer';
import type { PrismaClient } from './generated/prisma/client.ts';
import type { RenderedEmail } from './templates.ts';

export interface Envelope {
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  /** Display name in From; the address is always MAIL_FROM's, so SPF/DKIM of our domain hold. */
  fromName?: string;
}

/** Thrown when another delivery of the same event is sending right now: retry later. */
export class SendInProgressError extends Error {}

/** A claim older than this is taken to be from a process that died mid-send. */
const STALE_CLAIM_SECONDS = 60;

/**
 * Sends the email an event asks for at most once per event id, whatever the redeliveries:
 * claim a row keyed by the event id, send, mark sent. A redelivery finds the row sent and stops.
 * The one window left is a crash between the SMTP server's acceptance and the mark; the re-send
 * that follows carries the same Message-ID, which mail systems use to drop duplicates.
 */
export function emailSender(options: { prisma: PrismaClient; transport: Transporter; from: string }) {
  const { prisma, transport, from } = options;
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const fromFor = (name?: string) => (name ? { name: name.replace(/["\r\n]/g, ''), address } : from);

  return async function sendOnce(
    eventId: string,
    kind: string,
    envelope: Envelope,
    email: RenderedEmail,
  ): Promise<'sent' | 'already-sent'> {
    const to = envelope.to.join(', ');
    const claimed = await prisma.$queryRaw<Array<{ id: string }>>`
      INSERT INTO sent_emails (id, event_id, kind, recipient, subject, status)
      VALUES (gen_random_uuid(), ${eventId}::uuid, ${kind}, ${to}, ${email.subject}, 'sending')
      ON CONFLICT (event_id) DO UPDATE SET status = 'sending', attempts = sent_emails.attempts + 1, claimed_at = now()
        WHERE sent_emails.status = 'failed'
           OR (sent_emails.status = 'sending' AND sent_emails.claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
      RETURNING id`;
    const row = claimed[0];
    if (!row) {
      const existing = await prisma.sentEmail.findUnique({ where: { eventId } });
      if (existing?.status === 'sent') return 'already-sent';
      throw new SendInProgressError(`email for event ${eventId} is being sent by another delivery`);
    }
    try {
      await transport.sendMail({
        from: fromFor(envelope.fromName),
        to: envelope.to,
        cc: envelope.cc,
        bcc: envelope.bcc,
        replyTo: envelope.replyTo,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: `<${eventId}@${domain}>`,
      });
    } catch (error) {
      await prisma.sentEmail.update({
        where: { id: row.id },
        data: { status: 'failed', lastError: String(error).slice(0, 1000) },
      });
      throw error;
    }
    await prisma.sentEmail.update({ where: { id: row.id }, data: { status: 'sent', sentAt: new Date() } });
    return 'sent';
  };
}
