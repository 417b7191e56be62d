import { fileURLToPath } from 'node:url';
import { createServiceApp, migrate, prismaAdapter, sealer, type EventBus } from '@app/kit';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import nodemailer from 'nodemailer';
import type { MailCatcher } from './catcher.ts';
import type { MailConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import { inboxRoutes } from './inbox.ts';
import { emailSender } from './sender.ts';
import {
  demoRequestEmail,
  emailChangeEmail,
  introEmail,
  passwordChangedEmail,
  verificationEmail,
} from './templates.ts';

export const SCHEMA = 'mail';
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface MailService {
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the mail service: it consumes events that ask for an email and sends each once over SMTP. */
export async function createMailService(options: {
  config: MailConfig;
  bus: EventBus;
  /** The built-in catcher behind SMTP_URL, when `npm start` runs without one: adds /dev/inbox. */
  catcher?: MailCatcher;
  logger?: FastifyServerOptions['logger'] | false;
}): Promise<MailService> {
  const { config, bus } = options;
  await migrate(config.DATABASE_URL, SCHEMA, migrationsDir);
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, SCHEMA, 4) });
  // A pooled transport: smtp servers add a delay to each new connection, so reuse them.
  const smtpUrl = new URL(config.SMTP_URL);
  smtpUrl.searchParams.set('pool', 'true');
  const transport = nodemailer.createTransport(smtpUrl.href);
  const app = createServiceApp({
    name: 'mail',
    internalSecret: config.INTERNAL_SECRET,
    logger: options.logger,
    readiness: [async () => void (await prisma.$queryRaw`SELECT 1`)],
  });
  const sendOnce = emailSender({ prisma, transport, from: config.MAIL_FROM });
  const tokens = sealer(config.INTERNAL_SECRET, 'email-verification');

  await bus.subscribe({
    event: 'email_verification.requested',
    subscriber: 'mail-verification-email',
    handle: async (event) => {
      const { userId, email, firstName, sealedToken, expiresAt } = event.payload;
      const token = tokens.open(sealedToken);
      const rendered = verificationEmail({
        appName: config.APP_NAME,
        publicUrl: config.PUBLIC_URL,
        firstName,
        userId,
        token,
        expiresAt: new Date(expiresAt),
      });
      const outcome = await sendOnce(event.id, 'email-verification', { to: [email] }, rendered);
      app.log.info({ eventId: event.id, requestId: event.requestId, outcome }, 'verification email');
      if (options.catcher && outcome === 'sent') {
        const link = /https?:\/\/\S+/.exec(rendered.text)?.[0];
        app.log.info(`Verification link for ${email}: ${link} (all emails: ${config.PUBLIC_URL}/dev/inbox)`);
      }
    },
  });

  await bus.subscribe({
    event: 'referral.intro_email_requested',
    subscriber: 'mail-referral-intro',
    handle: async (event) => {
      const { referralId, fromName, replyTo, to, cc, bcc, subject, body } = event.payload;
      const outcome = await sendOnce(
        event.id,
        'referral-intro',
        { to, cc, bcc, replyTo, fromName },
        introEmail(subject, body),
      );
      app.log.info({ eventId: event.id, requestId: event.requestId, referralId, outcome }, 'referral intro email');
    },
  });

  await bus.subscribe({
    event: 'demo_request.submitted',
    subscriber: 'mail-demo-request',
    handle: async (event) => {
      const rendered = demoRequestEmail({ ...event.payload, appName: config.APP_NAME });
      const outcome = await sendOnce(
        event.id,
        'demo-request',
        { to: [config.SALES_EMAIL], replyTo: event.payload.email },
        rendered,
      );
      app.log.info(
        { eventId: event.id, requestId: event.requestId, demoRequestId: event.payload.requestId, outcome },
        'demo request email',
      );
    },
  });

  await bus.subscribe({
    event: 'email_change.requested',
    subscriber: 'mail-email-change',
    handle: async (event) => {
      const { userId, newEmail, firstName, sealedToken, expiresAt } = event.payload;
      const token = tokens.open(sealedToken);
      const rendered = emailChangeEmail({
        appName: config.APP_NAME,
        publicUrl: config.PUBLIC_URL,
        firstName,
        userId,
        newEmail,
        token,
        expiresAt: new Date(expiresAt),
      });
      const outcome = await sendOnce(event.id, 'email-change', { to: [newEmail] }, rendered);
      app.log.info({ eventId: event.id, requestId: event.requestId, outcome }, 'email change link');
      if (options.catcher && outcome === 'sent') {
        const link = /https?:\/\/\S+/.exec(rendered.text)?.[0];
        app.log.info(`Email change link for ${newEmail}: ${link} (all emails: ${config.PUBLIC_URL}/dev/inbox)`);
      }
    },
  });

  await bus.subscribe({
    event: 'password.changed',
    subscriber: 'mail-password-changed',
    handle: async (event) => {
      const { email, firstName } = event.payload;
      const rendered = passwordChangedEmail({
        appName: config.APP_NAME,
        publicUrl: config.PUBLIC_URL,
        supportEmail: config.SUPPORT_EMAIL,
        firstName,
      });
      const outcome = await sendOnce(event.id, 'password-changed', { to: [email] }, rendered);
      app.log.info({ eventId: event.id, requestId: event.requestId, outcome }, 'password changed notice');
    },
  });

  if (options.catcher) inboxRoutes(app, options.catcher);

  return {
    app,
    async close() {
      await app.close();
      transport.close();
      await prisma.$disconnect();
    },
  };
}
