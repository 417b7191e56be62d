import { prepared, subscriberDefiner, type TransactionOf } from '@app/kit';
import type pg from 'pg';
import type { PrismaClient } from './generated/prisma/client.ts';

/** A transaction of this service's database. */
export type Tx = TransactionOf<PrismaClient>;

/** Subscribers of this service (one file each under subscribers/). */
export const defineSubscriber = subscriberDefiner<Tx>();

/**
 * The raw SQL methods of a Prisma client or transaction, which is all the create's statements use: they
 * run in a Prisma transaction or, through `pgSql`, on a plain pg client (the create, bench:pipeline).
 */
export interface Sql {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

/** Texts of the tagged templates (one array per call site), with their values as $1, $2... */
const texts = new WeakMap<TemplateStringsArray, string>();
const textOf = (query: TemplateStringsArray) => {
  let text = texts.get(query);
  if (text === undefined) {
    text = query.reduce((sql, part, index) => `${sql}$${index}${part}`);
    texts.set(query, text);
  }
  return text;
};

/**
 * A pg client (or pool) as `Sql`: a tagged template's values become $1, $2... as Prisma sends them, and
 * every statement is prepared once per connection (`prepared`: the create's lookups and writes are by key;
 * `$queryRawUnsafe`'s texts are constants of the code, with the values as parameters).
 */
export function pgSql(client: pg.ClientBase | pg.Pool): Sql {
  return {
    $queryRaw: async <T>(query: TemplateStringsArray, ...values: unknown[]) =>
      (await client.query(prepared(textOf(query), values))).rows as T,
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) =>
      (await client.query(prepared(query, values))).rows as T,
    $executeRaw: async (query: TemplateStringsArray, ...values: unknown[]) =>
      (await client.query(prepared(textOf(query), values))).rowCount ?? 0,
  };
}
