import { z } from 'zod';

/** GET /api/referral-impact: the figures can be narrowed by date and partner (the Filters button). */
export const ImpactQuery = z.strictObject({
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD)' }).optional(),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD)' }).optional(),
  partner: z.string().trim().max(200, 'Must be at most 200 characters').optional(),
});
export type ImpactQuery = z.input<typeof ImpactQuery>;

export const ACTIVITY_TYPES = ['sent', 'received', 'accepted', 'declined', 'demo', 'closed'] as const;

/** Spec 3's referral impact summary; money in USD, rates in percent (0-100). */
export const ImpactSummary = z.object({
  totalReferrals: z.number().int(),
  acceptanceRate: z.number(),
  pendingRate: z.number(),
  declineRate: z.number(),
  /** Deal value of referrals in flight (known deal values, else 0). */
  pipelineValue: z.number(),
  closedWonCount: z.number().int(),
  giveGetScore: z.object({ sent: z.number().int(), received: z.number().int() }),
  /** The referrer's share of commissions, by payout state. */
  payoutSummary: z.object({ earned: z.number(), paidOut: z.number(), inEscrow: z.number() }),
  recentActivity: z.array(
    z.object({
      id: z.string(),
      type: z.enum(ACTIVITY_TYPES),
      partner: z.string(),
      contact: z.string(),
      amount: z.number().nullable(),
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
      revenueWon: z.number(),
      reciprocityRatio: z.number(),
    }),
  ),
  /** Per month (YYYY-MM), for the trend chart. */
  trends: z.array(
    z.object({ month: z.string(), sent: z.number().int(), closedWon: z.number().int(), earned: z.number() }),
  ),
});
export type ImpactSummary = z.infer<typeof ImpactSummary>;

export const PAYOUT_STATES = ['in_escrow', 'paid_out'] as const;

/** One commission: a vendor bounty that became the referrer's when the referral reached its milestone. */
export const Commission = z.object({
  id: z.string(),
  referralId: z.number().int(),
  milestone: z.string(),
  partner: z.string(),
  contact: z.string(),
  /** What the vendor pays for the milestone, and the referrer's share of it (plan share, Starter 70%). */
  grossAmount: z.number(),
  referrerAmount: z.number(),
  platformFee: z.number(),
  state: z.enum(PAYOUT_STATES),
  earnedAt: z.iso.datetime(),
  paidOutAt: z.iso.datetime().nullable(),
});
export type Commission = z.infer<typeof Commission>;
