import type { FastifyBaseLogger } from 'fastify';
import type { LanguageModel, Question } from './client.ts';

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
    try {
      text = await model.ask(attempt === 1 ? question : { ...question, system: question.system + REMINDER });
    } catch (error) {
      log.warn({ err: error, purpose }, 'language model unavailable; using local knowledge');
      return null;
    }
    try {
      return validate(text);
    } catch (error) {
      if (!(error instanceof InvalidOutput)) throw error;
      log.warn({ purpose, attempt, reason: error.message }, 'language model output refused');
    }
  }
  log.warn({ purpose }, 'language model output invalid twice; using local knowledge');
  return null;
}

/** The JSON object in a model's answer (some servers wrap it in a ``` fence despite json_object). */
export function jsonObject(text: string): unknown {
  const unfenced = text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new InvalidOutput('not a JSON object');
  }
}
