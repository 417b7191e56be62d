import { Bounties, hasAnyCriteria, LeadCriteria, SavedBounties, SavedLeadCriteria } from '@app/contracts';
import { HttpError, outboxEvent, parse, type Identity, type OutboxRelay } from '@app/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Tx } from './consumers.ts';
import type { LeadCriteria as LeadCriteriaRow, Prisma, PrismaClient } from './generated/prisma/client.ts';

export const PROFILE_MESSAGES = {
  noLeadCriteria: 'No lead criteria saved yet',
  noBounties: 'No bounties saved yet',
  emptyCriteria: 'Please fill in at least one field',
  verificationRequired: 'Email Verification Required – Please verify your email address before proceeding.',
} as const;

export interface ProfilesDeps {
  prisma: PrismaClient;
  relay: OutboxRelay;
}

/** An outbox row: the event payloads of contracts type their records as `unknown`, Prisma wants JSON. */
const outboxRow = (event: ReturnType<typeof outboxEvent>) => ({
  ...event,
  payload: event.payload as Prisma.InputJsonValue,
});

/** The saved profile as the API answers it: the eleven fields (in contract order) and when it was saved. */
function savedLeadCriteria(row: LeadCriteriaRow): z.output<typeof SavedLeadCriteria> {
  return SavedLeadCriteria.parse({
    employeeCount: row.employeeCount ?? [],
    industries: row.industries ?? [],
    countries: row.countries ?? [],
    minRevenue: row.minRevenue,
    fundingStage: row.fundingStage ?? [],
    techStack: row.techStack ?? [],
    companyNotes: row.companyNotes ?? [],
    jobTitles: row.jobTitles ?? [],
    seniority: row.seniority ?? [],
    departments: row.departments ?? [],
    contactNotes: row.contactNotes ?? [],
    updatedAt: row.updatedAt.toISOString(),
  });
}

const savedBounties = (row: { bounties: unknown; updatedAt: Date }): z.output<typeof SavedBounties> =>
  SavedBounties.parse({ bounties: row.bounties, updatedAt: row.updatedAt.toISOString() });

/** The company name the events carry: from `user.registered`, '' while that has not arrived. */
async function companyNameOf(tx: Tx, userId: string): Promise<string> {
  const user = await tx.user.findUnique({ where: { userId }, select: { companyName: true } });
  return user?.companyName ?? '';
}

export function profileRoutes(app: FastifyInstance, deps: ProfilesDeps) {
  const { prisma, relay } = deps;
  const user = { preHandler: app.requireUser };

  /** Saving a profile needs a verified email (spec 6); checked before the body, so nothing is revealed. */
  function verifiedUserOf(request: FastifyRequest): Identity {
    const identity = app.userOf(request);
    if (!identity.emailVerified) throw new HttpError(403, PROFILE_MESSAGES.verificationRequired);
    return identity;
  }

  app.get('/api/lead-criteria', user, async (request) => {
    const row = await prisma.leadCriteria.findUnique({ where: { userId: app.userOf(request).userId } });
    if (!row) throw new HttpError(404, PROFILE_MESSAGES.noLeadCriteria);
    return savedLeadCriteria(row);
  });

  app.post('/api/lead-criteria', user, async (request) => {
    const { userId } = verifiedUserOf(request);
    const criteria = parse(LeadCriteria, request.body);
    if (!hasAnyCriteria(criteria)) throw new HttpError(400, PROFILE_MESSAGES.emptyCriteria);
    const row = await prisma.$transaction(async (tx) => {
      const saved = await tx.leadCriteria.upsert({
        where: { userId },
        create: { userId, ...criteria },
        update: criteria,
      });
      await tx.outboxEvent.create({
        data: outboxRow(
          outboxEvent(
            'lead_criteria.saved',
            { userId, companyName: await companyNameOf(tx, userId), criteria },
            request.id,
          ),
        ),
      });
      return saved;
    });
    relay.kick();
    return savedLeadCriteria(row);
  });

  app.get('/api/bounties', user, async (request) => {
    const row = await prisma.bounties.findUnique({ where: { userId: app.userOf(request).userId } });
    if (!row) throw new HttpError(404, PROFILE_MESSAGES.noBounties);
    return savedBounties(row);
  });

  app.post('/api/bounties', user, async (request) => {
    const { userId } = verifiedUserOf(request);
    // Disabled milestones are stored with their values, so enabling one again restores them.
    const bounties = parse(Bounties, request.body);
    const row = await prisma.$transaction(async (tx) => {
      const saved = await tx.bounties.upsert({ where: { userId }, create: { userId, bounties }, update: { bounties } });
      await tx.outboxEvent.create({
        data: outboxRow(
          outboxEvent('bounties.saved', { userId, companyName: await companyNameOf(tx, userId), bounties }, request.id),
        ),
      });
      return saved;
    });
    relay.kick();
    return savedBounties(row);
  });
}
