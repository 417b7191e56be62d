import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Suites use their own databases and NATS namespaces, so files run side by side; most of their time is
    // waiting on PostgreSQL, NATS and SMTP, so three workers keep two cores busy (57 s against 68 s with two).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'packages/*/test/**/*.test.ts',
            'services/*/test/**/*.test.ts',
            'gateway/test/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
