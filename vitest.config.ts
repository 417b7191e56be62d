import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'gateway/test/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Suites use their own databases and consumer names, but share two cores.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
