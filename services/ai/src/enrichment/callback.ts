import {
  ENRICHMENT_CALLBACK_MAX_AGE_SECONDS,
  ENRICHMENT_CALLBACK_MAX_SKEW_SECONDS,
  EnrichmentCallback,
} from '@app/contracts';
import { fail, parse, type TransactionRunner } from '@app/kit';
import type { Tx } from '../db.ts';
import { completeRequest, isExpected, rememberCallback } from './repository.ts';
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

/** The headers a callback is signed with (contracts: ENRICHMENT_SIGNATURE_HEADER, ENRICHMENT_TIMESTAMP_HEADER). */
export interface CallbackSignature {
  signature: string | string[] | undefined;
  timestamp: string | string[] | undefined;
}

/**
 * POST /api/enrichment/callback (public: the enrichment service has no session, so it is trusted only
 * through the HMAC signature over its timestamp and body): the draft replaces the local one, for a referral
 * that was posted. A signature older than 5 minutes (or dated ahead beyond the skew) is refused, and one
 * seen before is a replay: each accepted signature is kept, with the draft, until it would be stale anyway.
 */
export function enrichmentCallbacks(deps: {
  transaction: TransactionRunner<Tx>;
  /** Unset when enrichment is not configured: every callback is refused. */
  secret: string | null;
}) {
  const { transaction, secret } = deps;
  return {
    async receiveDraft(raw: Buffer, headers: CallbackSignature): Promise<void> {
      if (!secret) fail('ENRICHMENT_NOT_CONFIGURED');
      const verified = verifySignature(secret, raw, headers) ?? fail('INVALID_SIGNATURE');
      const age = Math.floor(Date.now() / 1000) - verified.timestamp;
      if (age > ENRICHMENT_CALLBACK_MAX_AGE_SECONDS || age < -ENRICHMENT_CALLBACK_MAX_SKEW_SECONDS)
        fail('CALLBACK_EXPIRED');
      const { referralId, subject, body, recipients } = parse(EnrichmentCallback, readJson(raw));
      await transaction(async (tx, emit) => {
        // Kept past the time a copy could still pass the age check; recorded only with the draft it brought.
        const keepUntil = new Date((verified.timestamp + ENRICHMENT_CALLBACK_MAX_AGE_SECONDS + 60) * 1000);
        if (!(await rememberCallback(tx, verified.signature, keepUntil))) fail('CALLBACK_REPLAYED');
        if (!(await isExpected(tx, referralId))) fail('ENRICHMENT_NOT_EXPECTED');
        emit('referral.draft_generated', { referralId, subject, body, recipients, source: 'enrichment' });
        await completeRequest(tx, referralId);
      });
    },
  };
}

export type EnrichmentCallbacks = ReturnType<typeof enrichmentCallbacks>;
