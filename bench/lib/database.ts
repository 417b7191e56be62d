import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';

/**
 * A database made for one bench run. `cleanup` stops the bench's service process (asking it to close,
 * killing it after 5 s) and drops the database, unless BENCH_KEEP_DB asks to keep it.
 */
export async function benchDatabase(pgUrl: string, prefix: string, log: (line: string) => void) {
  const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  const database = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  return {
    url,
    async cleanup(child: ChildProcess | undefined) {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.send({ type: 'close' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (process.env.BENCH_KEEP_DB) log(`Kept database ${database} (BENCH_KEEP_DB)`);
      else
        await admin
          .query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
          .catch((error: Error) => log(`! could not drop ${database}: ${error.message}`));
      await admin.end();
    },
  };
}
