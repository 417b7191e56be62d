/**
 * The processes a deployment runs, each with its entry point and the zod schema of its environment, and
 * which variables it cannot start without. Kubernetes and compose tests check their manifests against it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { gatewayConfigSchema } from '../../gateway/src/config.ts';
import { aiConfigSchema } from '../../services/ai/src/config.ts';
import { authConfigSchema } from '../../services/auth/src/config.ts';
import { mailConfigSchema } from '../../services/mail/src/config.ts';
import { profilesConfigSchema } from '../../services/profiles/src/config.ts';
import { programsConfigSchema } from '../../services/programs/src/config.ts';
import { referralsConfigSchema } from '../../services/referrals/src/config.ts';
import type { ProcessName } from './topology.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface DeployedProcess {
  name: ProcessName;
  /** Relative to the repository (and to /app in the image). */
  main: string;
  schema: z.ZodObject;
  /** Optional in the schema, required by how the process starts on its own. */
  requiredToRun: string[];
}

// runService refuses to start a service without NATS_URL (packages/kit/src/run.ts); the gateway runs
// without it but then keeps ended sessions in its cache until they expire, so deployments set it too.
const service = (name: ProcessName, schema: z.ZodObject): DeployedProcess => ({
  name,
  main: `services/${name}/src/main.ts`,
  schema,
  requiredToRun: ['NATS_URL'],
});

export const DEPLOYED_PROCESSES: DeployedProcess[] = [
  { name: 'gateway', main: 'gateway/src/main.ts', schema: gatewayConfigSchema, requiredToRun: ['NATS_URL'] },
  service('auth', authConfigSchema),
  service('referrals', referralsConfigSchema),
  service('programs', programsConfigSchema),
  service('profiles', profilesConfigSchema),
  service('ai', aiConfigSchema),
  service('mail', mailConfigSchema),
];

/** Every variable the process reads. */
export const readVariables = (process: DeployedProcess) => Object.keys(process.schema.shape).sort();

/** Variables without a default that the schema does not allow to be missing, plus those it needs to run alone. */
export function requiredVariables(process: DeployedProcess): string[] {
  const required = Object.entries(process.schema.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name);
  return [...new Set([...required, ...process.requiredToRun])].sort();
}

/** The variables of README.md's configuration table (its first column). */
export function readmeVariables(): Set<string> {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const table = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  const names = new Set<string>();
  for (const line of table.split('\n')) {
    const first = line.startsWith('| `') ? line.split('|')[1]! : '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
}

/** What a deployment must set for a process: what it needs to start, and every README variable it reads. */
export function variablesToSet(process: DeployedProcess): string[] {
  const documented = readmeVariables();
  return [
    ...new Set([...requiredVariables(process), ...readVariables(process).filter((name) => documented.has(name))]),
  ].sort();
}
