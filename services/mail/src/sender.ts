import { PLAIN_ADDRESS } from '@app/contracts';
import { displayNameText } from '@app/domain';
import { metrics, SpanKind, unreachableLine, withSpan } from '@app/kit';
import { Transform, type Readable } from 'node:stream';
import type { Transporter } from 'nodemailer';
import type { SentEmails } from './repository.ts';
import type { RenderedEmail } from './templates.ts';

export interface Envelope {
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  /** Display name in From; the address is always MAIL_FROM's, so SPF/DKIM of our domain hold. */
  fromName?: string;
}

/** The longest display name put in From ("{name} via Referral Hub"). */
const DISPLAY_NAME_LIMIT = 100;

/**
 * A display name on one line that cannot pass for an address or a quoted name (issue 11): `<`, `>`, `@`,
 * double quotes, backslashes, control and format characters are removed (`displayNameText` of
 * @app/domain), whatever the event carries. nodemailer still quotes or MIME-encodes what is left.
 */
export function displayName(name: string): string {
  return displayNameText(name, DISPLAY_NAME_LIMIT);
}

/**
 * Whether every address of the envelope is one a mailer reads as itself and nothing else. nodemailer parses
 * each string as an address list: `jo@globex.test<root>` has the spec's shape but is delivered to the
 * relay's local "root" (shown as "jo@globex.test"), `boss<evil@attacker.test` to another address than the
 * one written. Such an email is not sent at all.
 */
export const plainEnvelope = (envelope: Envelope) =>
  [
    ...envelope.to,
    ...(envelope.cc ?? []),
    ...(envelope.bcc ?? []),
    ...(envelope.replyTo ? [envelope.replyTo] : []),
  ].every((address) => PLAIN_ADDRESS.test(address));

/**
 * Each message a transport sends handed to it in one piece (a nodemailer `stream` plugin): nodemailer streams a
 * message part by part, and the SMTP connection writes each part apart, so an intro email took eleven writes
 * after DATA, and the SMTP server as many reads (bench:pipeline). Collected first, the message goes out in one
 * write, the bytes unchanged. Our emails are text and HTML of a few kilobytes, no attachments.
 */
export function sendWhole(transport: Transporter): void {
  transport.use('stream', (mail, done) => {
    mail.message.processFunc((input: Readable) => {
      const parts: Buffer[] = [];
      const whole = new Transform({
        transform(chunk: Buffer, _encoding, next) {
          parts.push(chunk);
          next();
        },
        flush(next) {
          next(null, Buffer.concat(parts));
        },
      });
      input.on('error', (error) => whole.destroy(error));
      return input.pipe(whole);
    });
    done();
  });
}

/** Thrown when another delivery of the same event is sending right now: retry later. */
export class SendInProgressError extends Error {}

/**
 * Sends the email an event asks for at most once per event id (see `emailSender`); `refused` (nothing sent,
 * nothing recorded, not retried) when an address is not a plain one (`plainEnvelope`).
 */
export type SendOnce = (
  eventId: string,
  kind: string,
  envelope: Envelope,
  email: RenderedEmail,
) => Promise<'sent' | 'already-sent' | 'refused'>;

/**
 * Sends the email an event asks for at most once per event id, whatever the redeliveries:
 * claim a row keyed by the event id, send, mark sent. A redelivery finds the row sent and stops.
 * The one window left is a crash between the SMTP server's acceptance and the mark; the re-send
 * that follows carries the same Message-ID, which mail systems use to drop duplicates.
 */
export function emailSender(options: {
  sent: SentEmails;
  transport: Transporter;
  from: string;
  /** SMTP_URL, to name it (host and port only) when the server cannot be reached. */
  smtpUrl?: string;
}): SendOnce {
  const { sent, transport, from } = options;
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const fromFor = (name?: string) => {
    const display = name ? displayName(name) : '';
    return display ? { name: display, address } : from;
  };

  return async function sendOnce(eventId, kind, envelope, email) {
    if (!plainEnvelope(envelope)) {
      metrics.emailsRefused.inc({ kind });
      return 'refused';
    }
    const id = await sent.claim({ eventId, kind, recipient: envelope.to.join(', '), subject: email.subject });
    if (!id) {
      if (await sent.isSent(eventId)) return 'already-sent';
      throw new SendInProgressError(`email for event ${eventId} is being sent by another delivery`);
    }
    try {
      // The SMTP send as its own span, in the trace of the event that asked for the email (no addresses).
      const smtpSpan = { kind: SpanKind.CLIENT, attributes: { 'email.kind': kind, 'messaging.message.id': eventId } };
      await withSpan('mail', 'smtp send', smtpSpan, () =>
        transport.sendMail({
          from: fromFor(envelope.fromName),
          to: envelope.to,
          cc: envelope.cc,
          bcc: envelope.bcc,
          replyTo: envelope.replyTo,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: `<${eventId}@${domain}>`,
        }),
      );
    } catch (error) {
      metrics.emailsFailed.inc({ kind });
      await sent.markFailed(id, error);
      const line = options.smtpUrl && unreachableLine('SMTP', 'SMTP_URL', options.smtpUrl, error);
      throw line ? new Error(line, { cause: error }) : error;
    }
    metrics.emailsSent.inc({ kind });
    await sent.markSent(id);
    return 'sent';
  };
}
