import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** One email as the developer inbox of `npm start` shows it. */
export const CaughtEmail = z.object({
  id: z.number().int(),
  messageId: z.string(),
  from: z.string(),
  /** Envelope recipients (To, Cc and Bcc alike, as an SMTP server sees them). */
  to: z.array(z.string()),
  cc: z.string(),
  replyTo: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  receivedAt: z.string(),
});
export type CaughtEmail = z.infer<typeof CaughtEmail>;

export const mailOperations = {
  devInbox: defineOperation({
    method: 'GET',
    path: '/dev/inbox',
    service: 'mail',
    access: 'dev',
    summary: 'Every email `npm start` caught (no SMTP_URL), newest first, as a page',
    response: { status: 200, description: 'The inbox page', contentType: 'text/html; charset=utf-8' },
    errors: ['NOT_FOUND'],
  }),
  devInboxMessages: defineOperation({
    method: 'GET',
    path: '/dev/inbox/messages',
    service: 'mail',
    access: 'dev',
    summary: 'The same emails as JSON',
    response: { status: 200, description: 'Emails, newest first', schema: CaughtEmail.array() },
    errors: ['NOT_FOUND'],
  }),
} as const;
