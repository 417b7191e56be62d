import type { TransactionOf } from '@app/kit';
import type { PrismaClient } from './generated/prisma/client.ts';

/** A transaction of the auth database (the Prisma client itself fits wherever one is read outside of one). */
export type Tx = TransactionOf<PrismaClient>;
