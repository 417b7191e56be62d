// First, before anything loads: restarts the process with the allocator's setting when it lacks it.
import './allocator-restart.ts';
import {
  checkPortFree,
  closeMetricsServer,
  createLogger,
  natsBus,
  natsConnection,
  natsCounter,
  runProcess,
  serveMetrics,
  startTracing,
  stopTracing,
} from '@app/kit';
import { buildGateway } from './app.ts';
import { readGatewayConfig } from './config.ts';
import { isGatewayWorker, runWorkers, workerCount } from './workers.ts';

const worker = isGatewayWorker();

/**
 * The gateway as its own process, in front of services running as their own processes; with
 * GATEWAY_WORKERS above 1, this process forks that many workers sharing the port and each runs the gateway.
 */
await runProcess(async () => {
  const config = readGatewayConfig();
  if (!worker) {
    // The public port first: taken, the start fails at once, before connecting to anything.
    await checkPortFree(config.HOST, config.PORT, 'PORT');
    if (config.METRICS_PORT !== undefined) await checkPortFree(config.HOST, config.METRICS_PORT, 'METRICS_PORT');
    const count = workerCount(config.GATEWAY_WORKERS);
    if (count > 1) {
      const metrics = config.METRICS_PORT === undefined ? undefined : { host: config.HOST, port: config.METRICS_PORT };
      const workers = await runWorkers(count, metrics ? { metrics } : {});
      const logger = createLogger('gateway', config.LOG_LEVEL);
      logger.info(`gateway: ${count} workers on http://${config.HOST}:${config.PORT}`);
      return { logger, close: () => workers.close() };
    }
  }
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) await startTracing({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const bus = config.NATS_URL
    ? await natsBus({
        url: config.NATS_URL,
        name: 'gateway',
        namespace: config.NATS_NAMESPACE,
        logger: createLogger('gateway', config.LOG_LEVEL),
        secret: config.INTERNAL_SECRET,
      })
    : undefined;
  // Rate limits are counted in NATS KV, so every replica draws on the same budget.
  const nc = config.NATS_URL ? await natsConnection(config.NATS_URL, 'gateway-rate-limits') : undefined;
  const rateLimits = nc
    ? await natsCounter(nc, { namespace: config.NATS_NAMESPACE, maxWindowMs: config.RATE_LIMIT_WINDOW_MS })
    : undefined;
  const app = await buildGateway({ config, bus, ...(rateLimits ? { rateLimits } : {}) });
  await app.listen({ host: config.HOST, port: config.PORT });
  // A worker's metrics are served by the primary, summed over every worker.
  const metricsServer = worker ? undefined : await serveMetrics(config, app.log);
  return {
    logger: app.log,
    async close() {
      await app.close();
      await bus?.close();
      await nc?.close();
      await closeMetricsServer(metricsServer);
      await stopTracing();
    },
  };
});
