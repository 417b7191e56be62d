import { metrics } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import OpenAI from 'openai';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';

/**
 * The language model behind OPENAI_*, shared by the services that use one. Instructions go in the system
 * message only; whatever users or documents wrote travels in the user message as data (JSON), never
 * spliced into the instructions. Every attempt has a timeout and the SDK's retries are bounded.
 */
export interface Question {
  system: string;
  /** The data the instructions are about; serialized as JSON into the user message. */
  data: Record<string, unknown>;
  /** Ask for a JSON object (`response_format: json_object`). */
  json?: boolean;
  /** An image sent alongside the data (vision models). */
  image?: { mimeType: string; bytes: Buffer };
  maxTokens: number;
}

export interface LanguageModel {
  readonly model: string;
  /** The text of the first choice; throws when the server fails after the SDK's bounded retries. */
  ask(question: Question): Promise<string>;
}

export interface LanguageModelConfig {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  OPENAI_MODEL: string;
  OPENAI_TIMEOUT_MS: number;
  OPENAI_MAX_RETRIES: number;
}

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5...) take `max_completion_tokens` instead of `max_tokens`
 * and refuse sampling parameters other than the defaults. A `provider/` prefix (routers) is ignored.
 */
export const isReasoningModel = (model: string) => /^(o\d|gpt-5)/i.test(model.slice(model.lastIndexOf('/') + 1));

/** Reasoning tokens count against `max_completion_tokens`: room for them on top of the answer's own. */
export const REASONING_ALLOWANCE = 4096;

/** A 400 that names `max_tokens` or `temperature` as unsupported (a reasoning model behind another name). */
function refusesClassicParameters(error: unknown): boolean {
  const { status, param } = error as { status?: number; param?: string | null };
  return status === 400 && (param === 'max_tokens' || param === 'temperature');
}

/** The configured model, or null when no key is set (callers then answer from local knowledge). */
export function languageModel(config: LanguageModelConfig, log: FastifyBaseLogger): LanguageModel | null {
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
  // A deployment name can hide a reasoning model: the first refusal of the classic parameters switches for good.
  let reasoning = isReasoningModel(model);

  return {
    model,
    async ask(question) {
      const data = JSON.stringify(question.data);
      const content: string | ChatCompletionContentPart[] = question.image
        ? [
            { type: 'text', text: data },
            {
              type: 'image_url',
              image_url: { url: `data:${question.image.mimeType};base64,${question.image.bytes.toString('base64')}` },
            },
          ]
        : data;
      const request = () =>
        client.chat.completions.create({
          model,
          ...(reasoning
            ? { max_completion_tokens: question.maxTokens + REASONING_ALLOWANCE }
            : { temperature: 0, max_tokens: question.maxTokens }),
          ...(question.json ? { response_format: { type: 'json_object' as const } } : {}),
          messages: [
            { role: 'system', content: question.system },
            { role: 'user', content },
          ],
        });
      let response;
      try {
        response = await request();
      } catch (error) {
        if (reasoning || !refusesClassicParameters(error)) throw error;
        log.warn(
          { model, reason: (error as Error).message },
          'language model refuses max_tokens/temperature; asking it as a reasoning model',
        );
        reasoning = true;
        response = await request();
      }
      return response.choices[0]?.message.content ?? '';
    },
  };
}

/** Says why the model's text is unusable; the reason goes back to the model once, then to the log. */
export class InvalidOutput extends Error {}

const REMINDER =
  '\n\nYour previous answer did not follow the required format and was discarded. Answer again, following the format exactly.';

/**
 * Asks the model and accepts only output that `validate` turns into a value. Invalid output is asked for
 * once more, then refused; so is a server that still fails after the SDK's own retries. Refused means
 * null: callers fall back to local knowledge, and raw model text is never passed on.
 */
export async function askValidated<T>(
  model: LanguageModel,
  question: Question,
  validate: (text: string) => T,
  log: FastifyBaseLogger,
  purpose: string,
): Promise<T | null> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    let text: string;
    const timer = metrics.modelCalls.startTimer({ purpose });
    try {
      text = await model.ask(attempt === 1 ? question : { ...question, system: question.system + REMINDER });
    } catch (error) {
      timer({ outcome: 'error' });
      metrics.modelFallbacks.inc({ purpose, reason: 'unavailable' });
      warnOnce(
        log,
        `unavailable: ${failureReason(error)}`,
        { err: error, purpose },
        'language model unavailable; using local knowledge',
      );
      return null;
    }
    try {
      const value = validate(text);
      timer({ outcome: 'ok' });
      return value;
    } catch (error) {
      timer({ outcome: 'invalid' });
      if (!(error instanceof InvalidOutput)) throw error;
      log.warn({ purpose, attempt, reason: error.message }, 'language model output refused');
    }
  }
  metrics.modelFallbacks.inc({ purpose, reason: 'invalid_output' });
  warnOnce(
    log,
    `invalid output: ${purpose}`,
    { purpose },
    'language model output invalid twice; using local knowledge',
  );
  return null;
}

/** Why a call failed, short: the HTTP status and OpenAI's code, or the error's name (a timeout, a refused connection). */
function failureReason(error: unknown): string {
  const { status, code, name } = error as { status?: number; code?: string | null; name?: string };
  return status ? `${status} ${code ?? ''}`.trim() : (name ?? 'Error');
}

const warned = new Set<string>();

/**
 * Each reason for falling back to local knowledge is logged at warn once per process (an operator sees a
 * misconfigured model at once, not a warning per request); repeats go to debug.
 */
function warnOnce(log: FastifyBaseLogger, reason: string, fields: Record<string, unknown>, message: string) {
  if (warned.has(reason)) return log.debug({ ...fields, reason }, message);
  warned.add(reason);
  log.warn({ ...fields, reason }, message);
}

/** The JSON object in a model's answer (some servers wrap it in a ``` fence despite json_object). */
export function jsonObject(text: string): unknown {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new InvalidOutput('not a JSON object');
  }
}
