/**
 * The real gateway (`buildGateway`) in its own process, so its CPU time can be measured alone.
 * BENCH_GATEWAY_MODULE points at another copy of gateway/src/index.ts (the `gatewayB` target, for A/B runs).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Gateway from '@app/gateway';

type GatewayModule = typeof Gateway;
const override = process.env.BENCH_GATEWAY_MODULE;
const { buildGateway, readGatewayConfig } = (
  override ? await import(pathToFileURL(resolve(override)).href) : await import('@app/gateway')
) as GatewayModule;

const config = readGatewayConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const app = await buildGateway({ config });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address() as { port: number };
process.send?.({ type: 'ready', port: address.port });
process.on('message', (message: { type?: string }) => {
  if (message?.type === 'close') void app.close().then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
