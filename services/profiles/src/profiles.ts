import type { DemoRequest } from '@app/contracts';
import { hasAnyCriteria, SavedBounties, SavedLeadCriteria, type Bounties, type LeadCriteria } from '@app/contracts';
import { fail, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import type { LeadCriteria as LeadCriteriaRow } from './generated/prisma/client.ts';
import { companyNameOf, saveBountiesRow, saveLeadCriteriaRow } from './repository.ts';

/** The saved profile as the API answers it: the eleven fields (in contract order) and when it was saved. */
export function savedLeadCriteria(row: LeadCriteriaRow): z.output<typeof SavedLeadCriteria> {
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

export const savedBounties = (row: { bounties: unknown; updatedAt: Date }): z.output<typeof SavedBounties> =>
  SavedBounties.parse({ bounties: row.bounties, updatedAt: row.updatedAt.toISOString() });

/** Use cases of the profiles service: each owns its transaction and the events it announces. */
export function profileUseCases(transaction: TransactionRunner<Tx>) {
  return {
    /** Replaces the whole profile (fields left out become empty) and tells Smart Match. */
    async saveLeadCriteria(userId: string, criteria: LeadCriteria) {
      if (!hasAnyCriteria(criteria)) fail('EMPTY_CRITERIA');
      const row = await transaction(async (tx, emit) => {
        const saved = await saveLeadCriteriaRow(tx, userId, criteria);
        emit('lead_criteria.saved', { userId, companyName: await companyNameOf(tx, userId), criteria });
        return saved;
      });
      return savedLeadCriteria(row);
    },

    /** Disabled milestones are stored with their values, so enabling one again restores them. */
    async saveBounties(userId: string, bounties: Bounties) {
      const row = await transaction(async (tx, emit) => {
        const saved = await saveBountiesRow(tx, userId, bounties);
        emit('bounties.saved', { userId, companyName: await companyNameOf(tx, userId), bounties });
        return saved;
      });
      return savedBounties(row);
    },

    /** Stored, and the sales team is told by email (mail service, `demo_request.submitted`). */
    async requestDemo(input: z.output<typeof DemoRequest>) {
      await transaction(async (tx, emit) => {
        const saved = await tx.demoRequest.create({ data: { ...input, referralSource: input.referralSource ?? null } });
        emit('demo_request.submitted', {
          requestId: saved.id,
          firstName: saved.firstName,
          lastName: saved.lastName,
          email: saved.email,
          phone: saved.phone,
          website: saved.website,
          referralSource: saved.referralSource,
        });
      });
    },
  };
}
