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
      unstubGlobals: true,
    },
  }),
);
