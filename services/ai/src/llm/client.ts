import type { FastifyBaseLogger } from 'fastify';
import OpenAI from 'openai';
import type { AiConfig } from '../config.ts';

/**
 * One question to the model. Instructions go in the system message only; whatever users wrote travels
 * in the user message as data (JSON), never spliced into the instructions.
 */
export interface Question {
  system: string;
  /** The data the instructions are about; serialized as JSON into the user message. */
  data: Record<string, unknown>;
  /** Ask for a JSON object (`response_format: json_object`). */
  json?: boolean;
  maxTokens: number;
}

export interface LanguageModel {
  readonly model: string;
  /** The text of the first choice; throws when the server fails after the SDK's bounded retries. */
  ask(question: Question): Promise<string>;
}

/** The language model behind OPENAI_*, or null when no key is configured (local answers only). */
export function languageModel(config: AiConfig, log: FastifyBaseLogger): LanguageModel | null {
  if (!config.OPENAI_API_KEY) return null;
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    // Every attempt is bounded, and so is the number of attempts (timeouts, 429 and 5xx are retried with backoff).
    timeout: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
    logLevel: 'warn',
    logger: {
      error: (message, ...rest) => log.error({ detail: rest }, `openai: ${message}`),
      warn: (message, ...rest) => log.warn({ detail: rest }, `openai: ${message}`),
      info: (message) => log.info(`openai: ${message}`),
      debug: (message) => log.debug(`openai: ${message}`),
    },
  });
  const model = config.OPENAI_MODEL;

  return {
    model,
    async ask(question) {
      const response = await client.chat.completions.create({
        model,
        temperature: 0,
        max_tokens: question.maxTokens,
        ...(question.json ? { response_format: { type: 'json_object' as const } } : {}),
        messages: [
          { role: 'system', content: question.system },
          { role: 'user', content: JSON.stringify(question.data) },
        ],
      });
      return response.choices[0]?.message.content ?? '';
    },
  };
}
