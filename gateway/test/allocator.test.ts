import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV } from '../src/allocator.ts';

const restart = fileURLToPath(new URL('../src/allocator-restart.ts', import.meta.url));
/** What a process that loads the gateway's first import sees: its pid, its parent's and the setting. */
const script = `await import(${JSON.stringify(restart)}); console.log(JSON.stringify({ pid: process.pid, ppid: process.ppid, value: process.env.MALLOC_TRIM_THRESHOLD_ ?? null }))`;
const run = (env: Record<string, string | undefined>) => {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as { pid: number; ppid: number; value: string | null };
};

describe.runIf(process.platform === 'linux')('the allocator setting (main.ts)', () => {
  it('restarts the process in place with it when missing', () => {
    const seen = run({});
    expect(seen.value).toBe(ALLOCATOR_ENV.MALLOC_TRIM_THRESHOLD_);
    // The same process (execve), not a child of it: the parent is still this test.
    expect(seen.ppid).toBe(process.pid);
  });

  it("keeps the operator's own value", () => {
    expect(run({ MALLOC_TRIM_THRESHOLD_: '1048576' }).value).toBe('1048576');
  });
});
