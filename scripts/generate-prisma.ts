// `prisma generate` for every service that has a prisma/schema.prisma, one after the other, through
// scripts/prisma.ts (offline schema engine bridge). Exits non-zero if any generation fails.
// Root `postinstall`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = path.join(root, 'node_modules/.bin/node');
const wrapper = path.join(root, 'scripts/prisma.ts');
const servicesDir = path.join(root, 'services');

const services = readdirSync(servicesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(servicesDir, entry.name, 'prisma/schema.prisma')))
  .map((entry) => entry.name)
  .sort();

const failed: string[] = [];
for (const service of services) {
  process.stdout.write(`\n> prisma generate (services/${service})\n`);
  const result = spawnSync(node, [wrapper, 'generate'], { cwd: path.join(servicesDir, service), stdio: 'inherit' });
  if (result.status !== 0)
    failed.push(`${service} (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
}

if (failed.length > 0) {
  process.stderr.write(`\nprisma generate failed for: ${failed.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`\nprisma generate done for ${services.length} service(s): ${services.join(', ') || 'none'}\n`);
