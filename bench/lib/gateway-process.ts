/**
 * The real gateway (`buildGateway`) in its own process, so its CPU time can be measured alone.
 * BENCH_GATEWAY_MODULE points at another copy of gateway/src/index.ts (the `gatewayB` target, for A/B runs).
 * BENCH_GATEWAY_WORKERS above 1: this process is the primary of that many workers sharing one port, as
 * `GATEWAY_WORKERS` makes the gateway's own main.ts (gateway/src/workers.ts); the bench has no NATS, and its
 * routes have no rate limit, so each worker counts in its own memory.
 */
import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Gateway from '@app/gateway';
import { freePort } from '@app/kit';
import { isGatewayWorker, runWorkers } from '../../gateway/src/workers.ts';

type GatewayModule = typeof Gateway;
const workers = Number(process.env.BENCH_GATEWAY_WORKERS ?? 1);

if (cluster.isPrimary && workers > 1) {
  const port = await freePort();
  const running = await runWorkers(workers, { env: { BENCH_GATEWAY_PORT: String(port) } });
  process.send?.({ type: 'ready', port });
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'close') stop();
  });
  process.on('disconnect', stop);
} else {
  const worker = isGatewayWorker();
  const override = process.env.BENCH_GATEWAY_MODULE;
  const { buildGateway, readGatewayConfig } = (
    override ? await import(pathToFileURL(resolve(override)).href) : await import('@app/gateway')
  ) as GatewayModule;

  const config = readGatewayConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
  const app = await buildGateway({ config });
  await app.listen({ host: '127.0.0.1', port: worker ? Number(process.env.BENCH_GATEWAY_PORT) : 0 });
  const address = app.server.address() as { port: number };
  // A worker is stopped by its primary (SIGTERM, which `close` turns into a graceful close).
  const close = () => void app.close().then(() => process.exit(0));
  if (worker) process.once('SIGTERM', close);
  else {
    process.send?.({ type: 'ready', port: address.port });
    process.on('message', (message: { type?: string }) => {
      if (message?.type === 'close') close();
    });
    process.on('disconnect', () => process.exit(0));
  }
}
