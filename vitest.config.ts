import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Suites use their own databases and NATS namespaces, so files run side by side on the two cores.
    maxWorkers: 2,
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
