// Runs the real Prisma CLI (node_modules/prisma) with Node 24 and the offline schema engine bridge
// (packages/prisma-bridge) as PRISMA_SCHEMA_ENGINE_BINARY. Arguments, cwd, stdio and exit code pass through.
// Usage from a service: "prisma": "node ../../scripts/prisma.ts", then `npm run prisma -w services/x -- migrate status`.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = `${root}node_modules/.bin/node`;
const cli = `${root}node_modules/prisma/build/index.js`;
const bridge = `${root}packages/prisma-bridge/bin/schema-engine`;

const child = spawn(node, [cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: bridge,
    // Nothing to download or report on an offline machine.
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => child.kill(signal));
}

child.on('error', (error) => {
  process.stderr.write(`scripts/prisma.ts: cannot start the prisma CLI: ${error.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  process.exit(code ?? (signal === null ? 1 : 128 + constants.signals[signal]));
});
