import { defineSubscriber } from '../db.ts';
import type { Mailer } from '../mailer.ts';
import { demoRequestEmail } from '../templates.ts';

/** The sales team's notice of a demo request; replying answers the requester. */
export const sendDemoRequest = (mailer: Mailer) =>
  defineSubscriber({
    kind: 'idempotent',
    id: 'mail-demo-request',
    event: 'demo_request.submitted',
    handle: async ({ event, log }) => {
      const rendered = demoRequestEmail({ ...event.payload, appName: mailer.config.APP_NAME });
      const outcome = await mailer.sendOnce(
        event.id,
        'demo-request',
        { to: [mailer.config.SALES_EMAIL], replyTo: event.payload.email },
        rendered,
      );
      log.info({ demoRequestId: event.payload.requestId, outcome }, 'demo request email');
    },
  });
