import type { TransactionOf } from '@app/kit';
import type { PrismaClient } from './generated/prisma/client.ts';

/** A transaction of this service's database. */
export type Tx = TransactionOf<PrismaClient>;
