import { z } from 'zod';

/**
 * Every event that crosses a service boundary, named `entity.past_tense`, with its payload schema.
 * Producers write them to their outbox; consumers parse the payload with the same schema.
 */
export const events = {
  /** A new account was created (auth). */
  'user.registered': z.object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    companyName: z.string(),
  }),
  /**
   * A verification link must be mailed (auth, on register and on resend). The token is sealed with a key
   * derived from INTERNAL_SECRET so it is never readable in the outbox table or the stream.
   */
  'email_verification.requested': z.object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string(),
    sealedToken: z.string(),
    expiresAt: z.iso.datetime(),
  }),
  /** A user's email address was verified (auth). */
  'user.email_verified': z.object({ userId: z.string(), email: z.string() }),
  /** A session ended before its expiry (auth): gateways drop it from their cache at once. */
  'session.ended': z.object({ sessionId: z.string() }),
} as const;

export type EventName = keyof typeof events;
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>;

/** The envelope every transport carries. `id` is the de-duplication key end to end. */
export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  payload: EventPayload<N>;
  occurredAt: string;
  requestId?: string;
}
