import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompressPlugin } from './precompress.ts';

const webRoot = new URL('.', import.meta.url).pathname;
const reactRouterDist = new URL('../node_modules/react-router/dist/production/', import.meta.url).pathname;

/**
 * react-router's package exports only name its development build (dev warnings and checks); its production
 * build is the same code without them. Builds only: the dev server and the tests keep the warnings.
 */
const reactRouterProduction: Plugin = {
  name: 'react-router-production',
  apply: 'build',
  config: () => ({
    resolve: {
      alias: [
        { find: /^react-router$/, replacement: `${reactRouterDist}index.mjs` },
        { find: /^react-router\/dom$/, replacement: `${reactRouterDist}dom-export.mjs` },
      ],
    },
  }),
};

export default defineConfig({
  root: webRoot,
  // precompressPlugin: dist/**/*.br and .gz beside the files, which the gateway serves to browsers that accept them.
  plugins: [react(), tailwindcss(), reactRouterProduction, precompressPlugin()],
  resolve: {
    alias: { '@': new URL('./src', import.meta.url).pathname },
  },
  build: {
    outDir: new URL('./dist', import.meta.url).pathname,
    emptyOutDir: true,
    // .vite/manifest.json: scripts/bundle-budget.ts follows the landing route's chunks through it.
    manifest: true,
    // Every browser the app supports has <link rel=modulepreload>: no polyfill in the entry chunk.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
});
