/**
 * `npm run migrate` (the command of the Kubernetes migration Job): applies every service's committed
 * migrations and the kit's platform tables (outbox, processed events), each service in its own schema,
 * before the new version starts. Services still migrate on start under the same advisory lock, so this
 * only moves the work (and a failure) out of the rolling update: pods of the new version find nothing to do.
 *   node scripts/migrate.ts [service...]   (default: every service)
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { createLogger, databaseConfig, migrateService } from '@app/kit';

const root = fileURLToPath(new URL('..', import.meta.url));

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const databaseUrl = databaseConfig.DATABASE_URL.safeParse(process.env.DATABASE_URL || undefined);
if (!databaseUrl.success) fail(`Invalid configuration:\n  DATABASE_URL: ${databaseUrl.error.issues[0]!.message}`);

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !SERVICE_NAMES.includes(name as ServiceName));
if (unknown.length) fail(`Unknown service(s): ${unknown.join(', ')} (services: ${SERVICE_NAMES.join(', ')})`);
const services = asked.length ? (asked as ServiceName[]) : SERVICE_NAMES;

const log = createLogger('migrate', process.env.LOG_LEVEL || 'info');
try {
  for (const service of services) {
    const dir = `${root}services/${service}/prisma/migrations`;
    if (!existsSync(dir)) fail(`No migrations for ${service}: ${dir} is missing`);
    const applied = await migrateService(databaseUrl.data, service, dir);
    log.info(
      { schema: service, applied },
      `${service}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`,
    );
  }
} catch (error) {
  log.error({ err: error }, 'migration failed');
  process.exit(1);
}
log.info(`migrations done: ${services.join(', ')}`);
