import { EnrichmentCallback } from '@app/contracts';
import { fail, parse, type TransactionRunner } from '@app/kit';
import type { Tx } from '../db.ts';
import { completeRequest, isExpected } from './repository.ts';
import { verifySignature } from './signature.ts';

/** The JSON of a callback's exact bytes (which the signature covered). */
function readJson(raw: Buffer): unknown {
  if (!raw.length) fail('EMPTY_BODY');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return fail('MALFORMED_BODY');
  }
}

/**
 * POST /api/enrichment/callback (public: the enrichment service has no session, so it is trusted only
 * through the HMAC signature): the draft replaces the local one, for a referral that was posted.
 */
export function enrichmentCallbacks(deps: {
  transaction: TransactionRunner<Tx>;
  /** Unset when enrichment is not configured: every callback is refused. */
  secret: string | null;
}) {
  const { transaction, secret } = deps;
  return {
    async receiveDraft(raw: Buffer, signature: string | string[] | undefined): Promise<void> {
      if (!secret) fail('ENRICHMENT_NOT_CONFIGURED');
      if (!verifySignature(secret, raw, signature)) fail('INVALID_SIGNATURE');
      const { referralId, subject, body, recipients } = parse(EnrichmentCallback, readJson(raw));
      await transaction(async (tx, emit) => {
        if (!(await isExpected(tx, referralId))) fail('ENRICHMENT_NOT_EXPECTED');
        emit('referral.draft_generated', { referralId, subject, body, recipients, source: 'enrichment' });
        await completeRequest(tx, referralId);
      });
    },
  };
}

export type EnrichmentCallbacks = ReturnType<typeof enrichmentCallbacks>;
