import { defineConfig } from 'prisma/config';

// The service keeps its tables in its own PostgreSQL schema ("profiles") of the shared DATABASE_URL.
const url = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
url.searchParams.set('schema', 'profiles');

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: url.href },
});
