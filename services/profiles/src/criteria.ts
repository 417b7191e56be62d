import { Bounties, LeadCriteria, SavedBounties, SavedLeadCriteria } from '@app/contracts';
import type { z } from 'zod';
import type { Bounties as BountiesRow, LeadCriteria as LeadCriteriaRow } from './generated/prisma/client.ts';

/** Stored lead criteria and bounties as the API answers them and the events carry them: pure mappings. */

/** The eleven fields, in contract order. */
export const criteriaFields = (row: LeadCriteriaRow) => ({
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
});

/** The saved profile as the API answers it, with when it was saved. */
export const savedLeadCriteria = (row: LeadCriteriaRow): z.output<typeof SavedLeadCriteria> =>
  SavedLeadCriteria.parse({ ...criteriaFields(row), updatedAt: row.updatedAt.toISOString() });

export const savedBounties = (row: Pick<BountiesRow, 'bounties' | 'updatedAt'>): z.output<typeof SavedBounties> =>
  SavedBounties.parse({ bounties: row.bounties, updatedAt: row.updatedAt.toISOString() });

/**
 * Stored rows as the events carry them, or null when a row no longer passes today's rules (a carried-over
 * row): announcing it would roll back the change that announces it.
 */
export function announcedCriteria(row: LeadCriteriaRow): LeadCriteria | null {
  const parsed = LeadCriteria.safeParse(criteriaFields(row));
  return parsed.success ? parsed.data : null;
}

export function announcedBounties(row: BountiesRow): Bounties | null {
  const parsed = Bounties.safeParse(row.bounties);
  return parsed.success ? parsed.data : null;
}
