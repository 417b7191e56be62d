/**
 * The image's HEALTHCHECK: finds which process this container runs (the `main.ts` on a command line in
 * /proc), asks its /healthz on its port, and exits 0 or 1. No dependencies, so it costs a bare Node start.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The port variable and default of each process (the same as its config schema: a test checks). */
export const HEALTH_PORTS: Record<string, { variable: string; port: number }> = {
  gateway: { variable: 'PORT', port: 3000 },
  auth: { variable: 'AUTH_PORT', port: 4001 },
  referrals: { variable: 'REFERRALS_PORT', port: 4002 },
  programs: { variable: 'PROGRAMS_PORT', port: 4003 },
  profiles: { variable: 'PROFILES_PORT', port: 4004 },
  ai: { variable: 'AI_PORT', port: 4005 },
  mail: { variable: 'MAIL_PORT', port: 4006 },
};

function runningProcess(): string | undefined {
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const main = args.find((arg) => /(^|\/)(gateway|services\/[a-z]+)\/src\/main\.ts$/.test(arg));
    if (main) return main.includes('gateway/') ? 'gateway' : /services\/([a-z]+)\//.exec(main)![1];
  }
  return undefined;
}

if (import.meta.main) {
  const name = runningProcess();
  const entry = name ? HEALTH_PORTS[name] : undefined;
  if (!entry) {
    console.error('healthcheck: no gateway or service main.ts runs in this container');
    process.exit(1);
  }
  const port = Number(process.env[entry.variable] || entry.port);
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3000) }).then(
    (response) => response.ok,
    () => false,
  );
  if (!ok) console.error(`healthcheck: ${name} does not answer on http://127.0.0.1:${port}/healthz`);
  process.exit(ok ? 0 : 1);
}
