import { DemoRequest } from '@app/contracts';
import { outboxEvent, parse, type OutboxRelay } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { Prisma, PrismaClient } from './generated/prisma/client.ts';

export const DEMO_MESSAGES = { received: 'Demo request received' } as const;

/**
 * POST /api/demo-request (public): the request is stored and `demo_request.submitted` written to the
 * outbox in the same transaction; the mail service tells the sales team (SALES_EMAIL).
 */
export function demoRequestRoutes(app: FastifyInstance, deps: { prisma: PrismaClient; relay: OutboxRelay }) {
  const { prisma, relay } = deps;

  app.post('/api/demo-request', async (request, reply) => {
    const input = parse(DemoRequest, request.body);
    await prisma.$transaction(async (tx) => {
      const saved = await tx.demoRequest.create({
        data: {
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          phone: input.phone,
          website: input.website,
          referralSource: input.referralSource ?? null,
        },
      });
      const event = outboxEvent(
        'demo_request.submitted',
        {
          requestId: saved.id,
          firstName: saved.firstName,
          lastName: saved.lastName,
          email: saved.email,
          phone: saved.phone,
          website: saved.website,
          referralSource: saved.referralSource,
        },
        request.id,
      );
      await tx.outboxEvent.create({ data: { ...event, payload: event.payload as Prisma.InputJsonValue } });
    });
    relay.kick();
    return reply.status(201).send({ message: DEMO_MESSAGES.received });
  });
}
