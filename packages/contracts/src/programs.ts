import { z } from 'zod';
import { ERRORS } from './errors.ts';
import { idText, text, urlText } from './common.ts';

export const ProgramWebsite = urlText('Website', 500).refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'Must be a valid URL');

const programFields = {
  name: text({ label: 'Program name', max: 200, required: 'Program name is required' }),
  description: text({ label: 'Description', max: 5000, multiline: true, required: 'Description is required' }),
  website: ProgramWebsite,
  rewardDetails: text({
    label: 'Reward details',
    max: 20_000,
    multiline: true,
    required: 'Reward details are required',
  }),
  /** The vendor workspace the program belongs to (its ICP and bounties apply; its members manage it). */
  vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found').nullable().optional(),
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
