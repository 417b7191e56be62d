import { subscriberDefiner, type TransactionOf } from '@app/kit';
import type { PrismaClient } from './generated/prisma/client.ts';

/** A transaction of this service's database. */
export type Tx = TransactionOf<PrismaClient>;

/** Subscribers of this service (one file each under subscribers/). */
export const defineSubscriber = subscriberDefiner<Tx>();
