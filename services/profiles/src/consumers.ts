import type { EventBus } from '@app/kit';
import type { PrismaClient } from './generated/prisma/client.ts';

export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/**
 * Runs a handler at most once per event and subscriber: the processed_events row is inserted in the
 * same transaction as the handler's writes, so a redelivery (at-least-once bus) finds it and is skipped,
 * and a crash before commit leaves neither. Answers whether the handler ran.
 */
export async function handleOnce(
  prisma: PrismaClient,
  subscriber: string,
  eventId: string,
  handle: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const claimed = await tx.processedEvent.createMany({ data: [{ subscriber, eventId }], skipDuplicates: true });
    if (claimed.count === 0) return false;
    await handle(tx);
    return true;
  });
}

export const SUBSCRIBERS = { userProfile: 'profiles-user' } as const;

export async function subscribeConsumers(bus: EventBus, prisma: PrismaClient): Promise<void> {
  // The user's email and company name, carried in the events this service publishes.
  await bus.subscribe({
    event: 'user.registered',
    subscriber: SUBSCRIBERS.userProfile,
    handle: async (event) => {
      const { userId, email, companyName } = event.payload;
      await handleOnce(prisma, SUBSCRIBERS.userProfile, event.id, async (tx) => {
        await tx.user.upsert({
          where: { userId },
          create: { userId, email, companyName },
          update: { email, companyName },
        });
      });
    },
  });
}
