import { baseConfig, databaseConfig, port, readConfig } from '@app/kit';
import { z } from 'zod';

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(300_000).default(fallback);
const retries = (fallback: number) => z.coerce.number().int().min(0).max(5).default(fallback);

export const aiConfigSchema = z
  .object({
    ...baseConfig,
    ...databaseConfig,
    AI_PORT: port(4005),
    /** Where the app is reachable from outside: the enrichment webhook is told to call back here. */
    PUBLIC_URL: z.url().default('http://localhost:3000'),
    /**
     * Enables the language model. Any OpenAI-compatible server works through OPENAI_BASE_URL (Azure OpenAI,
     * Ollama, vLLM, LM Studio); servers that need no key still need a non-empty value here.
     */
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    OPENAI_MODEL: z.string().min(1).max(200).default('gpt-4o-mini'),
    /** Per attempt; the SDK retries timeouts, 429 and 5xx up to OPENAI_MAX_RETRIES times with backoff. */
    OPENAI_TIMEOUT_MS: milliseconds(20_000),
    OPENAI_MAX_RETRIES: retries(2),
    /** External enrichment (the spec's Clay): new referrals are posted here; a signed callback may replace the draft. */
    ENRICHMENT_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** HMAC-SHA256 key of the `x-signature` header, both ways. */
    ENRICHMENT_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    ENRICHMENT_TIMEOUT_MS: milliseconds(10_000),
    ENRICHMENT_MAX_RETRIES: retries(2),
  })
  .superRefine((config, context) => {
    if (config.ENRICHMENT_WEBHOOK_URL && !config.ENRICHMENT_WEBHOOK_SECRET) {
      context.addIssue({
        code: 'custom',
        path: ['ENRICHMENT_WEBHOOK_SECRET'],
        message: 'is required when ENRICHMENT_WEBHOOK_URL is set',
      });
    }
  });

export type AiConfig = z.output<typeof aiConfigSchema>;

export const readAiConfig = (env?: Record<string, string | undefined>) => readConfig(aiConfigSchema, env);
