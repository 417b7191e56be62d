import { z } from 'zod';
import { ERRORS } from './errors.ts';

const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

export const ProgramWebsite = z
  .string({ error: 'Must be a valid URL' })
  .trim()
  .max(500, 'Must be at most 500 characters')
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'Must be a valid URL');

const programFields = {
  name: required('Program name is required', 200),
  description: required('Description is required', 5000),
  website: ProgramWebsite,
  rewardDetails: required('Reward details are required', 20_000),
  /** The vendor workspace the program belongs to (its ICP and bounties apply; its members manage it). */
  vendorId: z.string().max(64).nullable().optional(),
};

/** POST /api/programs: the program form (spec 5), plus the vendor company it belongs to (issue 4). */
export const CreateProgramRequest = z.strictObject({ ...programFields, isActive: z.boolean().default(true) });
export type CreateProgramRequest = z.input<typeof CreateProgramRequest>;

/**
 * PATCH /api/programs/{id}: any subset, no defaults (the switch of spec 2 sends only isActive). An empty
 * one is answered NOTHING_TO_UPDATE by the service.
 */
export const UpdateProgramRequest = z.strictObject({ ...programFields, isActive: z.boolean() }).partial();
export type UpdateProgramRequest = z.input<typeof UpdateProgramRequest>;

export const Program = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  website: z.string(),
  rewardDetails: z.string(),
  vendorId: z.string().nullable(),
  /** The linked vendor's name (null when not linked). */
  vendorName: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Program = z.infer<typeof Program>;

/** Upload limits (issue 4): the type is checked from the content, not the name. */
export const PROGRAM_DOCUMENT_TYPES = ['pdf', 'doc', 'docx', 'txt', 'png', 'jpg', 'jpeg'] as const;
export const PROGRAM_DOCUMENT_ACCEPT = '.pdf,.doc,.docx,.txt,.png,.jpg,.jpeg';
export const PROGRAM_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** POST /api/analyze-referral-program (multipart, field `file`): the fields found in the document. */
export const ProgramAnalysis = z.object({
  programName: z.string(),
  description: z.string(),
  website: z.string(),
  /** Verbatim: every step, requirement, condition and amount as the document states them. */
  rewardDetails: z.string(),
  /** The vendor the document names, proposed to link or create a workspace ('' when not found). */
  vendorName: z.string(),
  /** The stored document, for reference. */
  documentId: z.string(),
  /** 'llm' when a model read it, 'extractor' for the deterministic reader. */
  analyzedBy: z.enum(['llm', 'extractor']),
});
export type ProgramAnalysis = z.infer<typeof ProgramAnalysis>;

/** What the upload form says before sending a file the service would refuse (DOCUMENT_TOO_LARGE). */
export const PROGRAM_MESSAGES = { tooLarge: ERRORS.DOCUMENT_TOO_LARGE.message } as const;
