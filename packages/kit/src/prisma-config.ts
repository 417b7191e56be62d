import { defineConfig } from 'prisma/config';

/**
 * The Prisma CLI configuration of a service: its tables live in its own PostgreSQL schema of the shared
 * DATABASE_URL, and the kit's platform tables (outbox, processed events; packages/kit/migrations) are
 * external to Prisma Migrate, so `prisma migrate dev` never proposes to drop them.
 * Kept free of other imports: the Prisma CLI loads it.
 */
export function servicePrismaConfig(schema: string) {
  const url = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  url.searchParams.set('schema', schema);
  return defineConfig({
    experimental: { externalTables: true },
    schema: 'prisma/schema.prisma',
    migrations: { path: 'prisma/migrations' },
    datasource: { url: url.href },
    tables: { external: [`${schema}.outbox_events`, `${schema}.processed_events`] },
  });
}
