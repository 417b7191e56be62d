import { z } from 'zod';
import { text } from './common.ts';
import { COMPANY_SIZES } from './options/index.ts';

const optionalText = (label: string, max: number) => text({ label, max }).optional();

/** POST /api/match (Smart Match): the client's need and what the referrer knows of the client. */
export const MatchRequest = z.strictObject({
  need: text({ label: 'Need', max: 2000, multiline: true, required: "Please describe your client's need" }),
  company: optionalText('Company', 200),
  website: optionalText('Website', 300),
  industry: optionalText('Industry', 120),
  country: optionalText('Country', 120),
  companySize: z.enum(COMPANY_SIZES, { error: 'Unknown company size' }).optional(),
  role: optionalText('Role', 120),
  integrations: z
    .array(text({ label: 'Integrations', max: 80 }))
    .max(20, 'At most 20 integrations')
    .default([]),
  urgency: z.enum(['low', 'medium', 'high'], { error: 'Unknown urgency' }).optional(),
  limit: z.number().int().min(1).max(20).default(5),
});
export type MatchRequest = z.input<typeof MatchRequest>;

export const BountySummary = z.object({
  milestone: z.string(),
  label: z.string(),
  type: z.string(),
  amount: z.number(),
  months: z.number().nullable(),
  /** Human text, e.g. '$500 at Closed-Won' or '20% of first-year ARR at Closed-Won'. */
  text: z.string(),
});

export const ProgramMatch = z.object({
  programId: z.string(),
  programName: z.string(),
  /** The verified vendor's workspace name, else the company the program names (a hint). */
  companyName: z.string().nullable(),
  /** The verified vendor workspace the program belongs to (null when none): where a referral would route. */
  vendorId: z.string().nullable().optional(),
  website: z.string(),
  description: z.string(),
  /** 0-100. */
  fit: z.number().int().min(0).max(100),
  /** Why it fits (need and ICP), in short sentences. */
  reasons: z.array(z.string()),
  reward: z.object({
    rewardDetails: z.string(),
    bounties: z.array(BountySummary),
    /** The referrer's share of each payout on their plan (Starter 70%). */
    referrerShare: z.number(),
  }),
});
export type ProgramMatch = z.infer<typeof ProgramMatch>;

export const MatchResponse = z.object({
  matches: z.array(ProgramMatch),
  /** Programs whose ICP the client clearly fails, with the reason. */
  excluded: z.array(z.object({ programId: z.string(), programName: z.string(), reasons: z.array(z.string()) })),
  rankedBy: z.enum(['llm', 'local']),
});
export type MatchResponse = z.infer<typeof MatchResponse>;
