/**
 * `npm start`: the whole app in one process on http://localhost:$PORT. Every service is still its own
 * Fastify app on its own loopback port behind the gateway; only the defaults are embedded:
 * PostgreSQL (when DATABASE_URL is unset), S3-compatible storage (S3_ENDPOINT unset), the in-process
 * event bus (NATS_URL unset) and a mail catcher with an inbox page (SMTP_URL unset). With those variables set, the same command uses the real ones.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authService } from '@app/auth-service';
import { aiService } from '@app/ai-service';
import { buildGateway, readGatewayConfig } from '@app/gateway';
import {
  checkPortFree,
  closeMetricsServer,
  ConfigError,
  connectionTarget,
  createLogger,
  inProcessBus,
  listenOnSocket,
  natsBus,
  observeConsumers,
  serveMetrics,
  StartupError,
  startTracing,
  stopTracing,
  type EventBus,
  type ProcessConfig,
  type RunnableService,
  type ServiceDefinition,
} from '@app/kit';
import {
  adminMailWithheld,
  createMailService,
  mailService,
  startMailCatcher,
  type MailCatcher,
} from '@app/mail-service';
import { profilesService } from '@app/profiles-service';
import { programsService, startEmbeddedS3 } from '@app/programs-service';
import { referralsService } from '@app/referrals-service';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Embedded PostgreSQL data and the generated secret; DATA_DIR moves it (the browser tests use a temp dir). */
const dataDir = process.env.DATA_DIR ?? `${root}.data`;
const log = createLogger('launcher', process.env.LOG_LEVEL);
const closers: Array<() => Promise<void>> = [];

async function main() {
  mkdirSync(dataDir, { recursive: true });
  // Run as root, PostgreSQL runs as its own system user, which must be able to reach its data folder.
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o755);
  const env: Record<string, string | undefined> = { ...process.env };
  // Tracing: every service still reports under its own name (service.name), from this one process.
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    await startTracing({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
    closers.push(stopTracing);
    log.info(`Tracing: spans exported to ${env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
  }

  if (!env.INTERNAL_SECRET) {
    // Kept on disk so events sealed before a restart can still be opened after it.
    const file = `${dataDir}/internal-secret`;
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
    env.INTERNAL_SECRET = readFileSync(file, 'utf8').trim();
  }
  // The public port first: taken, the start fails at once, before PostgreSQL and the rest start.
  const early = readGatewayConfig({ HOST: '127.0.0.1', ...env });
  await checkPortFree(early.HOST, early.PORT, 'PORT');
  // Unset, the public address follows the port: the allowed origin, email links and the lines below name
  // the port the app is really on (`PORT=3300 npm start`), not 3000.
  if (!env.PUBLIC_URL) env.PUBLIC_URL = `http://localhost:${early.PORT}`;
  if (early.METRICS_PORT !== undefined) await checkPortFree(early.HOST, early.METRICS_PORT, 'METRICS_PORT');

  if (!env.DATABASE_URL) {
    const embedded = await startEmbeddedPostgres(`${dataDir}/postgres`, log);
    closers.unshift(embedded.stop);
    env.DATABASE_URL = embedded.url;
    log.info(
      `Embedded PostgreSQL ready at ${connectionTarget(embedded.url)} (user postgres; data in ${dataDir}/postgres)`,
    );
  }

  let catcher: MailCatcher | undefined;
  if (!env.SMTP_URL) {
    // Anyone who reaches the inbox could verify an administrator's address registered by someone else:
    // emails to ADMIN_EMAILS addresses skip it, their link is printed here, once, for the operator.
    const print = (line: string) => process.stdout.write(`${line}\n`);
    catcher = await startMailCatcher(adminMailWithheld(env.ADMIN_EMAILS, print));
    closers.unshift(() => catcher!.close());
    env.SMTP_URL = catcher.url;
    // The inbox shows every verification link: never in production (the emails are then only caught).
    if (env.NODE_ENV !== 'production') env.DEV_INBOX = 'true';
  }

  if (!env.S3_ENDPOINT) {
    const s3 = await startEmbeddedS3(`${dataDir}/s3`);
    closers.unshift(s3.close);
    Object.assign(env, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_BUCKET: s3.bucket,
    });
    log.info(`Embedded S3 storage ready (files in ${dataDir}/s3)`);
  }

  // One bus for every service: it signs each event as the service its contract names as the producer.
  const secret = env.INTERNAL_SECRET;
  const bus: EventBus = env.NATS_URL
    ? await natsBus({
        url: env.NATS_URL,
        name: 'referral-platform',
        namespace: env.NATS_NAMESPACE,
        logger: log,
        secret,
      })
    : await inProcessBus({ databaseUrl: env.DATABASE_URL, logger: log, secret });

  // Services take loopback ports of the system's choosing; only the gateway's port is public. They start
  // in dependency order, so a service that calls another (referrals -> ai) is given its address. Each is
  // built from the same definition its own process uses (`runService`). Each also listens on a Unix socket
  // in a private temp folder, which the gateway's hot path uses (<NAME>_SOCKET): cheaper than loopback TCP.
  const serviceEnv: Record<string, string | undefined> = { ...env, HOST: '127.0.0.1' };
  const urls: Record<string, string> = {};
  const sockets: Record<string, string> = {};
  const socketDir = mkdtempSync(join(tmpdir(), 'referral-platform-'));
  closers.push(async () => rmSync(socketDir, { recursive: true, force: true }));
  const services: Array<{ close(): Promise<void> }> = [];
  const launch = async <C extends ProcessConfig, S extends RunnableService>(
    definition: ServiceDefinition<C, S>,
    create: (config: C) => Promise<S> = (config) => definition.create({ config, bus }),
  ) => {
    const service = await create(definition.readConfig({ ...serviceEnv, ...urls }));
    services.unshift(service);
    const name = definition.name.toUpperCase();
    urls[`${name}_URL`] = await service.app.listen({ host: '127.0.0.1', port: 0 });
    const socket = await listenOnSocket(service.app, join(socketDir, `${definition.name}.sock`));
    services.unshift(socket);
    sockets[`${name}_SOCKET`] = socket.path;
  };
  // Stopping: the bus first (no event left half-handled), then the services, newest first.
  closers.unshift(async () => {
    for (const service of services) await service.close();
  });
  closers.unshift(() => bus.close());
  await launch(authService);
  await launch(mailService, (config) => createMailService({ config, bus, catcher }));
  await launch(aiService);
  await launch(referralsService);
  await launch(programsService);
  await launch(profilesService);

  const gatewayConfig = readGatewayConfig({
    WEB_DIST: `${root}web/dist`,
    HOST: '127.0.0.1',
    ...env,
    ...urls,
    ...sockets,
  });
  const gateway = await buildGateway({ config: gatewayConfig, bus });
  closers.unshift(() => gateway.close());
  await gateway.listen({ host: gatewayConfig.HOST, port: gatewayConfig.PORT });
  // One metrics endpoint for the whole process: each app's series carry its `service` label.
  observeConsumers(bus);
  const metricsServer = await serveMetrics(gatewayConfig, log);
  closers.unshift(() => closeMetricsServer(metricsServer));

  const shown = gatewayConfig.PUBLIC_URL.replace(/\/$/, '');
  log.info(`App ready: ${shown}`);
  log.info(`API docs: ${shown}/api/docs`);
  if (catcher && gatewayConfig.DEV_INBOX) {
    log.info(`No SMTP_URL set: emails are caught, read them at ${shown}/dev/inbox (from this machine only)`);
  } else if (catcher) {
    log.warn('No SMTP_URL set: emails are caught and shown nowhere (NODE_ENV=production). Set SMTP_URL to send them.');
  }
  if (!env.NATS_URL) log.info('No NATS_URL set: events travel in process');
}

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const close of closers) {
    await close().catch((error: unknown) => log.error({ err: error }, 'error while stopping'));
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
  else log.error({ err: error }, 'could not start');
  void stop(1);
});
