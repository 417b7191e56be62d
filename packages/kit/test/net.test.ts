import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../src/net.ts';

const poolId = process.env.VITEST_POOL_ID;
afterEach(() => {
  process.env.VITEST_POOL_ID = poolId;
});

describe('freePort', () => {
  it('never hands out the same port twice in one process', async () => {
    const ports = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(300);
  });

  it('gives test workers running at once ports from ranges that do not overlap', async () => {
    const byWorker = new Map<string, number[]>();
    for (const worker of ['1', '2', '3']) {
      process.env.VITEST_POOL_ID = worker;
      const ports = [];
      for (let i = 0; i < 50; i++) ports.push(await freePort());
      byWorker.set(worker, ports);
    }
    const ranges = [...byWorker.values()].map((ports) => [Math.min(...ports), Math.max(...ports)]);
    ranges.sort((a, b) => a[0]! - b[0]!);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThan(ranges[i - 1]![1]!);
    for (const [low, high] of ranges) {
      expect(low).toBeGreaterThanOrEqual(20_000);
      expect(high).toBeLessThan(32_000);
    }
  });

  it('skips ports something already listens on', async () => {
    process.env.VITEST_POOL_ID = '7'; // the seventh slice, 26000-26999, not used by this file before
    const servers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => 26_000 + i)
        .filter((port) => port !== 26_500)
        .map(
          (port) =>
            new Promise<Server | null>((resolve) => {
              const server = createServer();
              server.once('error', () => resolve(null));
              server.listen(port, '127.0.0.1', () => resolve(server));
            }),
        ),
    );
    try {
      expect(await freePort()).toBe(26_500);
    } finally {
      await Promise.all(servers.map((server) => server && new Promise((resolve) => server.close(resolve))));
    }
  });
});
