import type { Tx } from '../db.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';

/** Data access of enrichment: the referrals posted to the webhook and what became of each. */
export type PostOutcome = { status: 'posted' | 'failed'; lastError: string | null };

/** In the transaction that stores the local draft: the referral is to be posted once that commits. */
export async function openRequest(tx: Tx, referralId: number, eventId: string): Promise<void> {
  await tx.enrichmentRequest.createMany({ data: [{ referralId, eventId, status: 'pending' }], skipDuplicates: true });
}

export const findRequest = (prisma: PrismaClient, referralId: number) =>
  prisma.enrichmentRequest.findUnique({ where: { referralId } });

/** Only from pending: a callback that came back while the post was on its way has already completed it. */
export async function recordPost(prisma: PrismaClient, referralId: number, outcome: PostOutcome): Promise<void> {
  await prisma.enrichmentRequest.updateMany({
    where: { referralId, status: 'pending' },
    data: { ...outcome, attempts: { increment: 1 } },
  });
}

export const isExpected = async (tx: Tx, referralId: number) =>
  (await tx.enrichmentRequest.count({ where: { referralId } })) > 0;

export async function completeRequest(tx: Tx, referralId: number): Promise<void> {
  await tx.enrichmentRequest.update({ where: { referralId }, data: { status: 'completed', lastError: null } });
}

/** Whether a subscriber has handled an event (its claim in processed_events committed). */
export async function handledBy(prisma: PrismaClient, subscriber: string, eventId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`
    SELECT 1 FROM processed_events WHERE subscriber = ${subscriber} AND event_id = ${eventId}`;
  return rows.length > 0;
}

/**
 * Records an accepted callback's signature; false when it was seen before (a replay). Expired ones are
 * dropped on the way, so the table holds only the last few minutes. Two copies at once: the second waits
 * for the first's transaction, then finds it.
 */
export async function rememberCallback(tx: Tx, signature: string, keepUntil: Date): Promise<boolean> {
  await tx.$executeRaw`DELETE FROM enrichment_callbacks_seen WHERE expires_at < now()`;
  const inserted = await tx.$executeRaw`
    INSERT INTO enrichment_callbacks_seen (signature, expires_at) VALUES (${signature}, ${keepUntil})
    ON CONFLICT (signature) DO NOTHING`;
  return inserted === 1;
}
