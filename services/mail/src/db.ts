import { subscriberDefiner, type TransactionOf } from '@app/kit';
import type { PrismaClient } from './generated/prisma/client.ts';

/** A transaction of the mail database. */
export type Tx = TransactionOf<PrismaClient>;

/** Subscribers of this service (one file per email under subscribers/). */
export const defineSubscriber = subscriberDefiner<Tx>();
