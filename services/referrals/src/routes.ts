import {
  AutomateRequest,
  CreateReferralRequest,
  ImpactQuery,
  ListReferralsQuery,
  REFERRAL_MESSAGES,
  SendEmailRequest,
  UpdateStatusRequest,
  type Referral,
} from '@app/contracts';
import { HttpError, outboxEvent, parse, type Identity, type OutboxRelay } from '@app/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { earnCommissions, recordPayout, STAGE_RANK } from './commissions.ts';
import { countNewReferral, countStatusChange, type Tx } from './figures.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import type { ReferralProgramFinder } from './programs.ts';
import { companyKey, projectIdFor, searchTextOf } from './projects.ts';
import type { ImpactReads } from './impact.ts';
import type { ReferralReads } from './reads.ts';

export interface ReferralsDeps {
  prisma: PrismaClient;
  reads: ReferralReads;
  relay: OutboxRelay;
  pool: pg.Pool;
  impact: ImpactReads;
  findReferralProgram: ReferralProgramFinder;
}

/** The sender name of intro emails: they come from the product, replies go to the referrer. */
export const introSenderName = (productName: string) => `${productName} via Referral Hub`;

const EmailDraftQuery = z.strictObject({
  checkOnly: z.enum(['true', 'false'], { error: 'checkOnly must be true or false' }).optional(),
});
const MAX_ID = 2 ** 31 - 1;

export function referralRoutes(app: FastifyInstance, deps: ReferralsDeps) {
  const { prisma, reads, relay, pool, impact, findReferralProgram } = deps;
  const user = { preHandler: app.requireUser };

  /** The referral id of the path: 400 unless numeric (spec 5). */
  function referralIdOf(request: FastifyRequest): number {
    const raw = (request.params as { id?: string }).id ?? '';
    if (!/^\d{1,12}$/.test(raw)) throw new HttpError(400, REFERRAL_MESSAGES.invalidId);
    return Number(raw);
  }

  /**
   * The user's own referral: 404 when there is none, 403 when it is another user's (spec 6). Checked
   * before the body is read, so another user's referral gives away nothing but its existence.
   */
  async function ownReferral(request: FastifyRequest): Promise<Referral> {
    const id = referralIdOf(request);
    const found = id <= MAX_ID ? await reads.byId(id) : null;
    if (!found) throw new HttpError(404, REFERRAL_MESSAGES.notFound);
    if (found.userId !== app.userOf(request).userId) throw new HttpError(403, REFERRAL_MESSAGES.notAuthorized);
    return found.referral;
  }

  const reload = async (id: number) => (await reads.byId(id))!.referral;

  app.post('/api/referrals', user, async (request, reply) => {
    const identity = app.userOf(request);
    const input = parse(CreateReferralRequest, request.body);
    // The project is found by its company and product; productId ('auto-generated' from the form) names none.
    const id = await prisma.$transaction(async (tx) => {
      const referrer = await referrerFor(tx, identity);
      const project = await upsertProject(tx, input.product, input.company, input.description);
      const referral = await tx.referral.create({
        data: {
          userId: identity.userId,
          projectId: project.id,
          referredFirstName: input.referredFirstName,
          referredLastName: input.referredLastName,
          referredEmail: input.referredEmail,
          referralReason: input.referralReason,
          isReferralAware: input.isReferralAware,
          canUseReferrerName: input.canUseReferrerName,
          company: input.company,
          searchText: searchTextOf({
            firstName: input.referredFirstName,
            lastName: input.referredLastName,
            email: input.referredEmail,
            company: input.company,
            projectCompanyName: project.company_name,
            reason: input.referralReason,
          }),
        },
      });
      await tx.referralStatusChange.create({
        data: { referralId: referral.id, userId: identity.userId, from: null, to: 'pending', at: referral.createdAt },
      });
      await countNewReferral(tx, identity.userId, referral.company);
      await tx.outboxEvent.create({
        data: outboxEvent(
          'referral.created',
          {
            referralId: referral.id,
            referrer: {
              userId: referrer.user_id,
              email: referrer.email,
              firstName: referrer.first_name,
              lastName: referrer.last_name,
              companyName: referrer.company_name,
            },
            referred: {
              firstName: referral.referredFirstName,
              lastName: referral.referredLastName,
              email: referral.referredEmail,
            },
            reason: referral.referralReason,
            isReferralAware: referral.isReferralAware,
            canUseReferrerName: referral.canUseReferrerName,
            project: {
              id: project.id,
              productName: project.product_name,
              companyName: project.company_name,
              description: project.description,
              website: project.website,
            },
          },
          request.id,
        ),
      });
      return referral.id;
    });
    relay.kick();
    return reply.status(201).send(await reload(id));
  });

  app.get('/api/referrals', user, async (request) => {
    const query = parse(ListReferralsQuery, request.query);
    return reads.list(app.userOf(request).userId, query);
  });

  app.get('/api/referrals/:id', user, async (request) => ownReferral(request));

  app.get('/api/referrals/:id/email-draft', user, async (request) => {
    const referral = await ownReferral(request);
    const { checkOnly } = parse(EmailDraftQuery, request.query);
    if (checkOnly === 'true') return { ready: referral.emailDraft !== null, fromClay: referral.fromClay };
    if (!referral.emailDraft) throw new HttpError(404, REFERRAL_MESSAGES.draftNotFound);
    return { emailDraft: referral.emailDraft, fromClay: referral.fromClay };
  });

  app.post('/api/referrals/:id/send-email', user, async (request) => {
    const referral = await ownReferral(request);
    const input = parse(SendEmailRequest, request.body);
    if (referral.emailSentAt) throw new HttpError(409, REFERRAL_MESSAGES.alreadySent);
    const draft = { subject: input.subject, body: input.body, recipients: input.recipients };
    const sent = await prisma.$transaction(async (tx) => {
      // Conditional update: of two concurrent sends, exactly one finds email_sent_at still empty.
      const claimed = await tx.$executeRaw`
        UPDATE referrals SET email_draft = ${JSON.stringify(draft)}::jsonb, email_sent_at = now(), updated_at = now()
         WHERE id = ${referral.id} AND email_sent_at IS NULL`;
      if (claimed !== 1) return false;
      await tx.outboxEvent.create({
        data: outboxEvent(
          'referral.intro_email_requested',
          {
            referralId: referral.id,
            fromName: introSenderName(referral.project.productName),
            replyTo: app.userOf(request).email,
            to: draft.recipients.to,
            cc: draft.recipients.cc,
            bcc: draft.recipients.bcc,
            subject: draft.subject,
            body: draft.body,
          },
          request.id,
        ),
      });
      return true;
    });
    if (!sent) throw new HttpError(409, REFERRAL_MESSAGES.alreadySent);
    relay.kick();
    return { success: true, message: REFERRAL_MESSAGES.emailSent };
  });

  app.put('/api/referrals/:id/status', user, async (request) => {
    const referral = await ownReferral(request);
    const input = parse(UpdateStatusRequest, request.body);
    const { status } = input;
    // Stored in cents (numeric(14,2)); a repeated value changes nothing.
    const dealValue = input.dealValue === undefined ? undefined : Math.round(input.dealValue * 100) / 100;
    const userId = app.userOf(request).userId;
    const changed = await prisma.$transaction(async (tx) => {
      // Locked, so concurrent changes each record the status they really moved from, and commissions
      // (earned in this transaction) are decided one change at a time.
      const [current] = await tx.$queryRaw<Array<{ status: string; deal_value: number | null }>>`
        SELECT status::text, deal_value::float8 AS deal_value FROM referrals WHERE id = ${referral.id} FOR UPDATE`;
      const from = current!.status as typeof status;
      const newDeal = dealValue !== undefined && dealValue !== current!.deal_value;
      if (from === status && !newDeal) return false;
      const at = new Date();
      if (newDeal)
        await tx.$executeRaw`UPDATE referrals SET deal_value = ${dealValue}, updated_at = ${at} WHERE id = ${referral.id}`;
      if (from !== status) {
        await tx.$executeRaw`
          UPDATE referrals SET status = ${status}::referral_status, updated_at = ${at},
                 furthest_stage = GREATEST(furthest_stage, ${STAGE_RANK[status]}),
                 closed_won_at = ${status === 'became_customer' ? at : null}
           WHERE id = ${referral.id}`;
        await tx.referralStatusChange.create({ data: { referralId: referral.id, userId, from, to: status, at } });
        await countStatusChange(tx, userId, from, status);
        await tx.outboxEvent.create({
          data: outboxEvent(
            'referral.status_changed',
            {
              referralId: referral.id,
              userId,
              projectId: referral.projectId,
              from,
              to: status,
              changedAt: at.toISOString(),
            },
            request.id,
          ),
        });
      }
      await earnCommissions(tx, referral.id);
      return from !== status;
    });
    if (changed) relay.kick();
    return reload(referral.id);
  });

  app.get('/api/referral-impact', user, async (request) => {
    const query = parse(ImpactQuery, request.query);
    return impact.summary(app.userOf(request).userId, query);
  });

  app.get('/api/commissions', user, async (request) => {
    const query = parse(ImpactQuery, request.query);
    return impact.commissions(app.userOf(request).userId, query);
  });

  app.post('/api/commissions/:id/payout', user, async (request) => {
    if (!app.userOf(request).isAdmin) throw new HttpError(403, 'Only administrators can record payouts');
    const paid = await recordPayout(pool, (request.params as { id: string }).id);
    if (!paid) throw new HttpError(404, 'Commission not found');
    return paid;
  });

  app.get('/api/products/:projectId/referral-program', user, async (request) => {
    const { projectId } = request.params as { projectId: string };
    const project = projectId.length <= 100 ? await prisma.project.findUnique({ where: { id: projectId } }) : null;
    if (!project) throw new HttpError(404, 'Product not found');
    return { referralProgram: (await findReferralProgram(project)) ?? REFERRAL_MESSAGES.noProgram };
  });

  app.post('/api/referrals/:id/automate', user, async (request) => {
    const referral = await ownReferral(request);
    const { dryRun } = parse(AutomateRequest, request.body);
    // Nothing is ever submitted to a vendor: the screen shows a simulated form (spec 2, "mock dry run").
    if (!dryRun) throw new HttpError(400, 'Only dry runs are supported');
    return {
      success: true,
      message: `Mock dry run: the referral form for ${referral.project.productName} was filled but not submitted.`,
    };
  });
}

/**
 * The referrer's profile for the `referral.created` event. The gateway's identity carries the current
 * email; names and company come from `user.registered`, which may not have arrived yet.
 */
async function referrerFor(tx: Tx, identity: Identity) {
  const [row] = await tx.$queryRaw<
    Array<{ user_id: string; email: string; first_name: string; last_name: string; company_name: string }>
  >`
    INSERT INTO referrers (user_id, email) VALUES (${identity.userId}, ${identity.email})
    ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email
    RETURNING user_id, email, first_name, last_name, company_name`;
  return row!;
}

/** The project for a product of a company, created on first use; a later referral may fill an empty description. */
async function upsertProject(tx: Tx, productName: string, companyName: string, description: string) {
  const [row] = await tx.$queryRaw<
    Array<{ id: string; product_name: string; company_name: string; description: string; website: string | null }>
  >`
    INSERT INTO projects (id, product_name, company_name, company_key, description)
    VALUES (${projectIdFor(productName, companyName)}, ${productName}, ${companyName}, ${companyKey(companyName)}, ${description})
    ON CONFLICT (id) DO UPDATE SET description = CASE WHEN projects.description = '' THEN EXCLUDED.description ELSE projects.description END
    RETURNING id, product_name, company_name, description, website`;
  return row!;
}
