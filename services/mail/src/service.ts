import {
  createDataService,
  defineService,
  registerOperations,
  sealer,
  type DataService,
  type ServiceOptions,
} from '@app/kit';
import nodemailer from 'nodemailer';
import type { MailCatcher } from './catcher.ts';
import { readMailConfig, type MailConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';
import type { Mailer } from './mailer.ts';
import { sentEmails } from './repository.ts';
import { mailRoutes } from './routes.ts';
import { emailSender, sendWhole } from './sender.ts';
import { sendCommissionEarned } from './subscribers/commission-earned.ts';
import { sendCommissionsReversed } from './subscribers/commissions-reversed.ts';
import { sendConfirmationRequested } from './subscribers/confirmation-requested.ts';
import { sendLeadWithdrawn } from './subscribers/lead-withdrawn.ts';
import { sendDemoRequest } from './subscribers/demo-request.ts';
import { sendEmailChangeLink } from './subscribers/email-change.ts';
import {
  sendEmailChangedNotice,
  sendEmailChangeRequestedNotice,
  sendEmailChangeTakenNotice,
} from './subscribers/email-change-notices.ts';
import { sendLeadCreated } from './subscribers/lead-created.ts';
import { sendLeadAccepted, sendLeadDeclined } from './subscribers/lead-decided.ts';
import { sendPasswordChangedNotice } from './subscribers/password-changed.ts';
import { sendPayoutRecorded } from './subscribers/payout-recorded.ts';
import { sendReferralIntro } from './subscribers/referral-intro.ts';
import { sendSignUpAttemptNotice } from './subscribers/sign-up-attempted.ts';
import { sendVendorInvitation } from './subscribers/vendor-invitation.ts';
import { sendVerificationEmail } from './subscribers/verification-email.ts';

export type MailService = DataService<PrismaClient>;

/**
 * Builds the mail service: it consumes the events that ask for an email and sends each once over SMTP.
 * With `catcher` (the built-in one behind SMTP_URL, when `npm start` runs without one) the development
 * inbox shows what it caught. Not listening yet.
 */
export async function createMailService(
  options: ServiceOptions<MailConfig> & { catcher?: MailCatcher },
): Promise<MailService> {
  const { config, catcher } = options;
  const service = await createDataService({
    name: 'mail',
    config,
    migrations: new URL('../prisma/migrations', import.meta.url),
    bus: options.bus,
    logger: options.logger,
    // Its sent_emails record (every email's claim and mark) is plain SQL on the pg pool.
    pgShare: 2 / 3,
    prisma: (adapter) => new PrismaClient({ adapter }),
  });
  // A pooled transport: SMTP servers add a delay to each new connection, so reuse them.
  const smtpUrl = new URL(config.SMTP_URL);
  smtpUrl.searchParams.set('pool', 'true');
  const transport = nodemailer.createTransport(smtpUrl.href);
  sendWhole(transport);

  registerOperations(service.app, 'mail', mailRoutes({ catcher }));
  const mailer: Mailer = {
    config,
    sendOnce: emailSender({
      sent: sentEmails(service.pool),
      transport,
      from: config.MAIL_FROM,
      smtpUrl: config.SMTP_URL,
    }),
    tokens: sealer(config.INTERNAL_SECRET, 'email-verification'),
    catching: catcher !== undefined,
    withholds: catcher?.withholds,
  };
  await service.subscribe(sendVerificationEmail(mailer));
  await service.subscribe(sendReferralIntro(mailer));
  await service.subscribe(sendDemoRequest(mailer));
  await service.subscribe(sendEmailChangeLink(mailer));
  await service.subscribe(sendPasswordChangedNotice(mailer));
  await service.subscribe(sendVendorInvitation(mailer));
  await service.subscribe(sendLeadCreated(mailer));
  await service.subscribe(sendLeadAccepted(mailer));
  await service.subscribe(sendLeadDeclined(mailer));
  await service.subscribe(sendConfirmationRequested(mailer));
  await service.subscribe(sendLeadWithdrawn(mailer));
  await service.subscribe(sendCommissionEarned(mailer));
  await service.subscribe(sendCommissionsReversed(mailer));
  await service.subscribe(sendPayoutRecorded(mailer));
  await service.subscribe(sendSignUpAttemptNotice(mailer));
  await service.subscribe(sendEmailChangeRequestedNotice(mailer));
  await service.subscribe(sendEmailChangedNotice(mailer));
  await service.subscribe(sendEmailChangeTakenNotice(mailer));

  return {
    ...service,
    async close() {
      await service.close();
      transport.close();
    },
  };
}

export const mailService = defineService({
  name: 'mail',
  readConfig: readMailConfig,
  port: (config) => config.MAIL_PORT,
  create: createMailService,
});
