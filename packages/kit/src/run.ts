import type { ServiceName } from '@app/contracts';
import type { FastifyBaseLogger as Logger, FastifyInstance } from 'fastify';
import { ConfigError } from './config.ts';
import type { EventBus } from './events/bus.ts';
import { natsBus } from './events/nats.ts';
import { createLogger } from './logger.ts';
import { closeMetricsServer, observeConsumers, startMetricsServer } from './metrics.ts';
import { checkPortFree, StartupError } from './startup.ts';
import { startTracing, stopTracing } from './tracing.ts';

/**
 * Runs a standalone process: starts it, and on SIGTERM/SIGINT closes it (stop taking requests, finish
 * in-flight work, disconnect) within `graceMs`, else exits anyway. A bad configuration exits with its
 * message and no stack.
 */
export async function runProcess(
  start: () => Promise<{ close: () => Promise<void>; logger: Logger }>,
  graceMs = 10_000,
) {
  let running: Awaited<ReturnType<typeof start>>;
  try {
    running = await start();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartupError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    running.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      running.logger.error('shutdown timed out');
      process.exit(1);
    }, graceMs);
    timer.unref();
    try {
      await running.close();
      process.exit(0);
    } catch (error) {
      running.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** A service as its own process knows how to start: `runService(definition)` is its whole `main.ts`. */
export interface ServiceDefinition<C extends ProcessConfig, S extends RunnableService> {
  name: ServiceName;
  readConfig(env?: Record<string, string | undefined>): C;
  /** Its own port (AUTH_PORT...), from the configuration: checked free before anything starts. */
  port(config: C): number;
  create(options: { config: C; bus: EventBus }): Promise<S>;
}

export interface ProcessConfig {
  HOST: string;
  LOG_LEVEL: string;
  INTERNAL_SECRET: string;
  NATS_URL?: string | undefined;
  NATS_NAMESPACE: string;
  METRICS_PORT?: number | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}

export interface RunnableService {
  app: FastifyInstance;
  close(): Promise<void>;
}

export const defineService = <C extends ProcessConfig, S extends RunnableService>(
  definition: ServiceDefinition<C, S>,
) => definition;

/**
 * A service as its own process (docker-compose, Kubernetes): events through NATS, listening on its port,
 * and on SIGTERM it stops consuming first (no event is left half-handled), then takes no more requests,
 * then flushes the outbox and disconnects.
 */
export function runService<C extends ProcessConfig, S extends RunnableService>(definition: ServiceDefinition<C, S>) {
  return runProcess(async () => {
    const config = definition.readConfig();
    if (!config.NATS_URL) {
      throw new ConfigError(
        `Invalid configuration:\n  NATS_URL: required when the ${definition.name} service runs as its own process`,
      );
    }
    await checkPortFree(config.HOST, definition.port(config), `${definition.name.toUpperCase()}_PORT`);
    if (config.METRICS_PORT !== undefined) await checkPortFree(config.HOST, config.METRICS_PORT, 'METRICS_PORT');
    const logger = createLogger(definition.name, config.LOG_LEVEL);
    if (config.OTEL_EXPORTER_OTLP_ENDPOINT) await startTracing({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
    const bus = await natsBus({
      url: config.NATS_URL,
      name: definition.name,
      namespace: config.NATS_NAMESPACE,
      logger,
      secret: config.INTERNAL_SECRET,
      producer: definition.name,
    });
    const service = await definition.create({ config, bus });
    await service.app.listen({ host: config.HOST, port: definition.port(config) });
    observeConsumers(bus);
    const metricsServer = await serveMetrics(config, service.app.log);
    return {
      logger: service.app.log,
      async close() {
        await bus.close();
        await service.close();
        await closeMetricsServer(metricsServer);
        await stopTracing();
      },
    };
  });
}

/** The process's metrics endpoint on METRICS_PORT (same HOST as the app), when set. */
export async function serveMetrics(config: { HOST: string; METRICS_PORT?: number | undefined }, log: Logger) {
  if (config.METRICS_PORT === undefined) return undefined;
  return startMetricsServer({ host: config.HOST, port: config.METRICS_PORT, log });
}
