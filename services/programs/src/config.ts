import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => ['true', '1', 'yes'].includes(value))
  .optional();

export const programsConfigSchema = z.object({
  ...baseConfig,
  ...databaseConfig,
  PROGRAMS_PORT: port(4003),
  /** S3-compatible object storage for uploaded documents. Unset endpoint: AWS S3 itself (region, credentials). */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z.string().min(3).max(63).default('program-documents'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Enables the language model for document analysis; without it a deterministic extractor reads documents. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OPENAI_MODEL: z.string().min(1).max(200).default('gpt-4o-mini'),
  /** Per attempt; the SDK retries timeouts, 429 and 5xx up to OPENAI_MAX_RETRIES times with backoff. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().max(300_000).default(30_000),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  /** Whether the model reads images; unset: guessed from OPENAI_MODEL (gpt-4o, gpt-4.1, gpt-5, o1/o3/o4...). */
  OPENAI_VISION: flag,
});

export type ProgramsConfig = z.output<typeof programsConfigSchema>;

export const readProgramsConfig = (env?: Record<string, string | undefined>) => readConfig(programsConfigSchema, env);

/** Models known to accept images in chat completions. */
const VISION_MODELS = /^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4-vision|gpt-5|o1(?!-mini)|o3|o4|chatgpt-4o)/i;

/** Whether images can be analyzed: a model is configured and it reads images. */
export const visionEnabled = (config: ProgramsConfig) =>
  Boolean(config.OPENAI_API_KEY) && (config.OPENAI_VISION ?? VISION_MODELS.test(config.OPENAI_MODEL));
