/**
 * GATEWAY_WORKERS: the gateway's own process forks that many workers sharing the port; metrics are summed
 * over them on METRICS_PORT; SIGTERM stops them all.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, freePort } from '@app/kit';
import { deleteStream, natsUrl, TEST_SECRET } from '@app/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { readGatewayConfig } from '../src/config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const namespace = `gwworkers${process.pid}`;
afterAll(() => deleteStream(namespace.toUpperCase()).catch(() => undefined));

const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GATEWAY_WORKERS', () => {
  it('refuses more than one worker without NATS (rate limits and session evictions must be shared)', () => {
    expect(() => readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET, GATEWAY_WORKERS: '2' })).toThrow(ConfigError);
    expect(() => readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET, GATEWAY_WORKERS: '2' })).toThrow(/GATEWAY_WORKERS/);
    expect(
      readGatewayConfig({ INTERNAL_SECRET: TEST_SECRET, GATEWAY_WORKERS: 'auto', NATS_URL: 'nats://x:4222' }),
    ).toMatchObject({ GATEWAY_WORKERS: 'auto' });
  });

  it('serves from two workers on one port, sums their metrics, and stops them all on SIGTERM', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const child = spawn(`${root}node_modules/.bin/node`, [`${root}gateway/src/main.ts`], {
      env: {
        PATH: process.env.PATH,
        INTERNAL_SECRET: TEST_SECRET,
        LOG_LEVEL: 'warn',
        NATS_URL: await natsUrl(),
        NATS_NAMESPACE: namespace,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        GATEWAY_WORKERS: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      // The primary serves metrics once every worker listens.
      await waitFor(async () => ((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).ok ? true : undefined));
      const workers = childrenOf(child.pid!);
      expect(workers).toHaveLength(2);

      // Fresh connections each time, so both workers take some.
      for (let i = 0; i < 20; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`, { headers: { connection: 'close' } });
        expect(response.status).toBe(200);
      }
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/readyz"'));
      expect(Number(line?.split(' ').at(-1))).toBe(20);

      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
