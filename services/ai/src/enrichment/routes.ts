import { EnrichmentCallback } from '@app/contracts';
import { HttpError, outboxEvent, parse, type OutboxRelay } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { EnrichmentRequests } from './requests.ts';
import { SIGNATURE_HEADER, verifySignature } from './signature.ts';
import { describeFailure, type EnrichmentWebhook } from './webhook.ts';

const CALLBACK_LIMIT = 64 * 1024;

export const TEST_MESSAGES = {
  success: 'Test Successful',
  failure: 'Test Failed',
  notConfigured: 'Enrichment webhook is not configured',
} as const;

const asText = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

export function enrichmentRoutes(
  app: FastifyInstance,
  deps: {
    prisma: PrismaClient;
    relay: OutboxRelay;
    secret: string | undefined;
    webhook: EnrichmentWebhook | null;
    requests: EnrichmentRequests | null;
  },
) {
  const { prisma, relay, secret, webhook, requests } = deps;

  // The signature covers the exact bytes sent, so this route reads the body raw and parses it itself.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: CALLBACK_LIMIT },
      (_request, body, done) => done(null, body),
    );

    /** Public (the enrichment service has no session): trusted only through the HMAC signature. */
    scope.post('/api/enrichment/callback', async (request) => {
      if (!secret || !requests) throw new HttpError(404, 'Enrichment is not configured');
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!verifySignature(secret, raw, request.headers[SIGNATURE_HEADER]))
        throw new HttpError(401, 'Invalid signature');
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new HttpError(400, raw.length ? 'Malformed JSON body' : 'Request body is empty');
      }
      const { referralId, subject, body, recipients } = parse(EnrichmentCallback, json);
      if (!(await requests.isExpected(referralId))) throw new HttpError(404, 'Referral not found');
      await prisma.$transaction([
        prisma.outboxEvent.create({
          data: outboxEvent(
            'referral.draft_generated',
            { referralId, subject, body, recipients, source: 'enrichment' },
            request.id,
          ),
        }),
        prisma.enrichmentRequest.update({ where: { referralId }, data: { status: 'completed', lastError: null } }),
      ]);
      relay.kick();
      return { message: 'Draft received' };
    });
  });

  /** The /test-clay page: does the webhook answer? Always 200, with the outcome in message and result. */
  app.get('/api/test-clay-webhook', { preHandler: app.requireUser }, async () => {
    if (!webhook)
      return {
        message: TEST_MESSAGES.notConfigured,
        result: 'Set ENRICHMENT_WEBHOOK_URL and ENRICHMENT_WEBHOOK_SECRET to post new referrals to it.',
      };
    try {
      // A person is waiting on the button: one attempt, no retries.
      const answer = await webhook.post(
        { event: 'test', test: true, message: 'Test from Referral Hub', sentAt: new Date().toISOString() },
        { maxRetries: 0 },
      );
      if (answer.ok) return { message: TEST_MESSAGES.success, result: answer.body };
      return { message: TEST_MESSAGES.failure, result: `HTTP ${answer.status}: ${asText(answer.body)}`.slice(0, 2000) };
    } catch (error) {
      return { message: TEST_MESSAGES.failure, result: describeFailure(error) };
    }
  });
}
