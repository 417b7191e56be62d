import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import { metricsRegistry } from '@app/kit';
import { AggregatorRegistry } from 'prom-client';

/** `GATEWAY_WORKERS`: a count, or `auto` for one per core. */
export const workerCount = (setting: number | 'auto') => (setting === 'auto' ? availableParallelism() : setting);

/** In a worker of a multi-worker gateway: this process's metrics go to the primary, which serves them. */
export function isGatewayWorker(): boolean {
  if (!cluster.isWorker) return false;
  AggregatorRegistry.setRegistries([metricsRegistry]);
  // Constructing one is what makes prom-client answer the primary's requests for this worker's metrics.
  new AggregatorRegistry();
  return true;
}

/**
 * The primary of a multi-worker gateway: forks `count` workers (this same program, which then runs the
 * gateway; they share the listening port, the kernel spreading connections), serves their metrics summed
 * on `metrics` when given. A worker that dies takes the gateway down (exit 1) rather than serving on with
 * fewer cores: the supervisor restarts it whole. `close` stops every worker (each closes gracefully).
 */
export async function runWorkers(
  count: number,
  options: { metrics?: { host: string; port: number }; env?: Record<string, string> } = {},
): Promise<{ close(): Promise<void> }> {
  const workers: Worker[] = [];
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    await Promise.all(
      workers
        .filter((worker) => !worker.isDead())
        .map((worker) => {
          const exited = new Promise((resolve) => worker.once('exit', resolve));
          worker.process.kill('SIGTERM');
          return exited;
        }),
    );
  };
  cluster.on('exit', (worker, exitCode, signal) => {
    if (stopping) return;
    // Exit 0: it was stopped on purpose (Ctrl-C reaches every process of the terminal's group).
    if (exitCode !== 0) {
      console.error(`gateway worker ${worker.process.pid} exited (${signal ?? exitCode}); stopping the gateway`);
    }
    void stopAll().then(() => process.exit(exitCode === 0 ? 0 : 1));
  });

  await Promise.all(
    Array.from({ length: count }, () => {
      const worker = cluster.fork(options.env);
      workers.push(worker);
      return new Promise<void>((resolve) => worker.once('listening', () => resolve()));
    }),
  );
  let metricsServer: Server | undefined;
  if (options.metrics) {
    const aggregator = new AggregatorRegistry();
    metricsServer = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?', 1)[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        return void response.end(JSON.stringify({ message: 'Not found', code: 'NOT_FOUND' }));
      }
      aggregator.clusterMetrics().then(
        (text) => {
          response.writeHead(200, { 'content-type': aggregator.contentType });
          response.end(text);
        },
        () => {
          response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify({ message: 'Internal server error', code: 'INTERNAL_ERROR' }));
        },
      );
    });
    const { host, port } = options.metrics;
    await new Promise<void>((resolve) => metricsServer!.listen(port, host, resolve));
  }
  return {
    async close() {
      metricsServer?.close();
      await stopAll();
    },
  };
}
