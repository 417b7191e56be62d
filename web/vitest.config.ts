import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      root: new URL('.', import.meta.url).pathname,
      environment: 'jsdom',
      // i.e. web/test/**/*.test.{ts,tsx} from the repository root
      include: ['test/**/*.test.{ts,tsx}'],
      setupFiles: ['./test/setup.ts'],
      restoreMocks: true,
      // Files share a worker's jsdom and module cache instead of building their own (most of the suite's
      // time): test/setup.ts resets what a file could leave behind (DOM, toasts, timers, stubs, mocks).
      isolate: false,
      unstubGlobals: true,
      // A hang guard, not a speed check: a screen's test takes ~1 s alone but several on a 2-core machine
      // running the server suites beside it (vitest's 5 s default failed there).
      testTimeout: 20_000,
    },
  }),
);
