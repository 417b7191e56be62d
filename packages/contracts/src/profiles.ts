import { z } from 'zod';
import { text } from './common.ts';
import { COMPANY_SIZES, DEPARTMENTS, FUNDING_STAGES, SENIORITY_LEVELS } from './options/index.ts';

/** Tag lists: custom entries allowed; blanks and duplicates dropped (spec 5). */
const tagList = (label: string, maxItems = 200, maxLength = 120) =>
  z
    .array(text({ label, max: maxLength, maxMessage: `Entries must be at most ${maxLength} characters` }), {
      error: 'Must be a list',
    })
    .max(maxItems, `At most ${maxItems} entries`)
    .transform((items) => [...new Set(items.map((item) => item.trim()).filter(Boolean))])
    .default([]);

const choiceList = <T extends readonly [string, ...string[]]>(options: T, what: string) =>
  z
    .array(z.enum(options, { error: `Unknown ${what}` }))
    .max(options.length)
    .transform((items) => [...new Set(items)])
    .default([]);

/** The Ideal Customer Profile: the eleven fields of spec 3. */
export const LeadCriteria = z.strictObject({
  employeeCount: choiceList(COMPANY_SIZES, 'company size'),
  industries: tagList('Industries'),
  countries: tagList('Countries'),
  /** Digits only, may be empty (spec 5). */
  minRevenue: text({
    label: 'Revenue',
    max: 15,
    maxMessage: 'Revenue is too large',
    typeMessage: 'Revenue must be a positive number',
  })
    .regex(/^\d*$/, 'Revenue must be a positive number')
    .default(''),
  fundingStage: choiceList(FUNDING_STAGES, 'funding stage'),
  techStack: tagList('Tech stack'),
  companyNotes: tagList('Company notes', 20, 2000),
  jobTitles: tagList('Job titles'),
  seniority: choiceList(SENIORITY_LEVELS, 'seniority'),
  departments: choiceList(DEPARTMENTS, 'department'),
  contactNotes: tagList('Contact notes', 20, 2000),
});
export type LeadCriteriaInput = z.input<typeof LeadCriteria>;
export type LeadCriteria = z.output<typeof LeadCriteria>;

/** Save & Continue needs at least one field with a value; minRevenue counts only above 0 (spec 5). */
export function hasAnyCriteria(criteria: LeadCriteriaInput): boolean {
  return Object.entries(criteria).some(([key, value]) =>
    key === 'minRevenue'
      ? Number(value ?? 0) > 0
      : Array.isArray(value) && value.some((item) => String(item).trim() !== ''),
  );
}

export const MILESTONES = [
  'qualifiedLead',
  'meetingHeld',
  'opportunityCreated',
  'closedWon',
  'retentionBonus',
] as const;
export type Milestone = (typeof MILESTONES)[number];
export const PAYOUT_TYPES = ['flat', 'percentage_arr', 'percentage_mrr'] as const;
export type PayoutType = (typeof PAYOUT_TYPES)[number];

export const BOUNTY_MESSAGES = {
  noneEnabled: 'No bounties set – Please enable at least one milestone to continue.',
  missingAmount: 'Incomplete bounties – Please enter a payout amount for every active milestone.',
  months: 'Months must be between 1 and 60',
  percentage: 'A percentage must be at most 100',
  flatCents: 'A flat amount must be in whole cents, e.g. 50 or 50.25',
} as const;

export const Bounty = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  type: z.enum(PAYOUT_TYPES, { error: 'Unknown payout type' }).optional(),
  amount: z
    .number({ error: 'Payout amount must be a number' })
    .min(0, 'Payout amount must be positive')
    .max(10_000_000, 'Payout amount is too large')
    .optional(),
  months: z
    .number({ error: 'Months must be a number' })
    .int(BOUNTY_MESSAGES.months)
    .min(1, BOUNTY_MESSAGES.months)
    .max(60, BOUNTY_MESSAGES.months)
    .optional(),
});
export type Bounty = z.infer<typeof Bounty>;

/** POST /api/bounties: one entry per milestone, with the rules of spec 5. */
const BountyFields = z.strictObject(
  Object.fromEntries(MILESTONES.map((m) => [m, Bounty])) as Record<Milestone, typeof Bounty>,
);

export const Bounties = BountyFields.superRefine((bounties, ctx) => {
  const enabled = MILESTONES.filter((m) => bounties[m].enabled);
  if (enabled.length === 0) ctx.addIssue({ code: 'custom', message: BOUNTY_MESSAGES.noneEnabled });
  for (const m of enabled) {
    const bounty = bounties[m];
    // Missing or zero; a negative amount is said by its own rule ('Payout amount must be positive'), not as missing.
    if (bounty.amount === undefined || bounty.amount === 0)
      ctx.addIssue({ code: 'custom', path: [m, 'amount'], message: BOUNTY_MESSAGES.missingAmount });
    if (bounty.type?.startsWith('percentage') && bounty.amount !== undefined && bounty.amount > 100)
      ctx.addIssue({ code: 'custom', path: [m, 'amount'], message: BOUNTY_MESSAGES.percentage });
    if (bounty.type === 'percentage_mrr' && bounty.months === undefined)
      ctx.addIssue({ code: 'custom', path: [m, 'months'], message: BOUNTY_MESSAGES.months });
  }
});
export type Bounties = z.infer<typeof Bounties>;

/**
 * POST /api/bounties: the rules of spec 5, and a flat amount in whole cents (a bounty of $0.001 paid nothing, one
 * of $50.555 a rounded amount). Saved bounties are still read with `Bounties`, so none stored before is refused.
 */
export const SaveBountiesRequest = Bounties.superRefine((bounties, ctx) => {
  for (const m of MILESTONES) {
    const { enabled, type, amount } = bounties[m];
    if (
      enabled &&
      (type ?? 'flat') === 'flat' &&
      amount !== undefined &&
      amount > 0 &&
      !/^\d+(\.\d{1,2})?$/.test(String(amount))
    )
      ctx.addIssue({ code: 'custom', path: [m, 'amount'], message: BOUNTY_MESSAGES.flatCents });
  }
});

/** Spec 3 defaults: only closedWon enabled. */
export const DEFAULT_BOUNTIES: Bounties = {
  qualifiedLead: { enabled: false },
  meetingHeld: { enabled: false },
  opportunityCreated: { enabled: false },
  closedWon: { enabled: true, type: 'flat' },
  retentionBonus: { enabled: false },
};

/** What a saved profile answers (GET), with when it was saved. */
export const SavedLeadCriteria = LeadCriteria.extend({ updatedAt: z.iso.datetime() });
/** Saved bounties are read as stored: the save rules (at least one enabled...) are the form's, not the reader's. */
export const SavedBounties = z.object({ bounties: BountyFields, updatedAt: z.iso.datetime() });

/** Plans (spec 9): the referrer's share of each payout. Everyone is on Starter until plans are sold. */
export const PLAN_SHARES = { starter: 0.7, growth: 0.8, scale: 0.9 } as const;
