/** Child processes for the bench: forked Node helpers speaking over IPC, and CPU time read from /proc. */
import { fork, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface ReadyMessage {
  type: 'ready';
  port: number;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** Forks one of the helpers in this folder and waits for its `{ type: 'ready', port }`. */
export async function forkHelper(
  file: string,
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(here(file), [], {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${file} exited with code ${code} before it was ready`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.on('message', function onMessage(message: ReadyMessage) {
      if (message?.type !== 'ready') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message.port);
    });
  });
  return { child, port };
}

/** Asks a helper to close cleanly (so a --cpu-prof profile gets written), then kills it if it lingers. */
export async function stopHelper(child: ChildProcess, timeoutMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'close' });
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of one process (all its threads), in microseconds. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / CLOCK_TICKS;
}

/** The pid and its direct children (nginx: master + worker). */
export function withChildren(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}

export const totalCpuMicros = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);

export { freePort } from '@app/kit';

/** Polls until something accepts TCP connections on the port. */
export async function waitForPort(port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listening on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** CPU time spent busy on the whole machine (all cores, excluding idle and iowait), in microseconds. */
export function machineBusyMicros(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user, nice, system, _idle, _iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number) as number[];
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1e6) / CLOCK_TICKS;
}
