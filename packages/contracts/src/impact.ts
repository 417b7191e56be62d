import { z } from 'zod';
import { text } from './common.ts';
import { PayoutSummary } from './money.ts';

export const IMPACT_MESSAGES = { fromAfterTo: 'The start date must be on or before the end date' } as const;

/** GET /api/referral-impact: the figures can be narrowed by date and partner (the Filters button). */
export const ImpactQuery = z
  .strictObject({
    from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD)' }).optional(),
    to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD)' }).optional(),
    partner: text({ label: 'Partner', max: 200 }).optional(),
  })
  // From after To is refused (docs/product-decisions.md, Impact filters): ISO dates compare as text.
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: IMPACT_MESSAGES.fromAfterTo,
    path: ['from'],
  });
export type ImpactQuery = z.input<typeof ImpactQuery>;

export const ACTIVITY_TYPES = ['sent', 'received', 'accepted', 'declined', 'withdrawn', 'demo', 'closed'] as const;

/** Spec 3's referral impact summary; money in integer cents of `currency`, rates in percent (0-100). */
export const ImpactSummary = z.object({
  totalReferrals: z.number().int(),
  acceptanceRate: z.number(),
  pendingRate: z.number(),
  declineRate: z.number(),
  currency: z.string(),
  /** The vendors' expected deal values of referrals in flight (not Closed-Won, not Declined). */
  pipelineValueCents: z.number().int(),
  closedWonCount: z.number().int(),
  giveGetScore: z.object({ sent: z.number().int(), received: z.number().int() }),
  /** The referrer's share of commissions, by state, from the ledger. */
  payoutSummary: PayoutSummary,
  recentActivity: z.array(
    z.object({
      id: z.string(),
      type: z.enum(ACTIVITY_TYPES),
      partner: z.string(),
      contact: z.string(),
      amountCents: z.number().int().nullable(),
      timestamp: z.iso.datetime(),
    }),
  ),
  conversionFunnel: z.object({
    teeUps: z.number().int(),
    warmIntros: z.number().int(),
    demos: z.number().int(),
    closedWon: z.number().int(),
  }),
  partnerLeaderboard: z.array(
    z.object({
      partner: z.string(),
      leadsSent: z.number().int(),
      leadsReceived: z.number().int(),
      revenueWonCents: z.number().int(),
      reciprocityRatio: z.number(),
    }),
  ),
  /** Per month (YYYY-MM), for the trend chart. */
  trends: z.array(
    z.object({ month: z.string(), sent: z.number().int(), closedWon: z.number().int(), earnedCents: z.number().int() }),
  ),
});
export type ImpactSummary = z.infer<typeof ImpactSummary>;
