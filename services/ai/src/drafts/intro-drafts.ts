import { metrics } from '@app/kit';
import type { LanguageModel } from '@app/llm';
import type { FastifyBaseLogger } from 'fastify';
import { recipientsFor, type Draft, type NewReferral } from './draft.ts';
import { askModelForDraft } from './llm-draft.ts';
import { templateDraft } from './template.ts';

/** The durable subscriber id of intro drafting: one consumer shared by every instance of the service. */
export const INTRO_DRAFT_SUBSCRIBER = 'ai-intro-draft';

/** The draft for a new referral: the language model's when configured and its output is valid, else the template. */
export async function writeDraft(
  referral: NewReferral,
  model: LanguageModel | null,
  log: FastifyBaseLogger,
): Promise<Draft> {
  if (!model) metrics.modelFallbacks.inc({ purpose: 'intro-draft', reason: 'not_configured' });
  const written = model ? await askModelForDraft(model, referral, log) : null;
  const text = written ?? templateDraft(referral);
  return {
    referralId: referral.referralId,
    ...text,
    recipients: recipientsFor(referral),
    source: written ? 'llm' : 'template',
  };
}
