import type { FastifyBaseLogger } from 'fastify';
import OpenAI from 'openai';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { ProgramsConfig } from './config.ts';

// The approach of services/ai/src/llm (copied, not imported): instructions in the system message only, the
// document as data in the user message, every attempt bounded by a timeout, bounded SDK retries, output
// validated and asked for once more when invalid, then refused (callers fall back to the extractor).

export interface Question {
  system: string;
  /** Serialized as JSON into the user message. */
  data: Record<string, unknown>;
  /** An image sent alongside the data (vision models). */
  image?: { mimeType: string; bytes: Buffer };
  maxTokens: number;
}

export interface LanguageModel {
  readonly model: string;
  ask(question: Question): Promise<string>;
}

export function languageModel(config: ProgramsConfig, log: FastifyBaseLogger): LanguageModel | null {
  if (!config.OPENAI_API_KEY) return null;
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
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
      const data = JSON.stringify(question.data);
      const content: string | ChatCompletionContentPart[] = question.image
        ? [
            { type: 'text', text: data },
            { type: 'image_url', image_url: { url: `data:${question.image.mimeType};base64,${question.image.bytes.toString('base64')}` } },
          ]
        : data;
      const response = await client.chat.completions.create({
        model,
        temperature: 0,
        max_tokens: question.maxTokens,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: question.system },
          { role: 'user', content },
        ],
      });
      return response.choices[0]?.message.content ?? '';
    },
  };
}

export class InvalidOutput extends Error {}

const REMINDER = '\n\nYour previous answer did not follow the required format and was discarded. Answer again, following the format exactly.';

/** The validated answer, or null when the model failed or answered invalidly twice. */
export async function askValidated<T>(model: LanguageModel, question: Question, validate: (text: string) => T, log: FastifyBaseLogger, purpose: string): Promise<T | null> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    let text: string;
    try {
      text = await model.ask(attempt === 1 ? question : { ...question, system: question.system + REMINDER });
    } catch (error) {
      log.warn({ err: error, purpose }, 'language model unavailable');
      return null;
    }
    try {
      return validate(text);
    } catch (error) {
      if (!(error instanceof InvalidOutput)) throw error;
      log.warn({ purpose, attempt, reason: error.message }, 'language model output refused');
    }
  }
  log.warn({ purpose }, 'language model output invalid twice');
  return null;
}

export function jsonObject(text: string): unknown {
  const unfenced = text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new InvalidOutput('not a JSON object');
  }
}
