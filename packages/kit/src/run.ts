import type { FastifyBaseLogger as Logger } from 'fastify';
import { ConfigError } from './config.ts';

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
    if (error instanceof ConfigError) {
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
