import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@app/kit';
import { freshDatabase } from '@app/testing';

const root = fileURLToPath(new URL('..', import.meta.url));

export { freePort } from '@app/kit';

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Whether process `pid` holds the listening TCP socket of `port` (Linux: /proc/net/tcp and the process's file
 * descriptors). Where /proc cannot tell, true: the health check alone decides, as before.
 */
function listensOn(pid: number, port: number): boolean {
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue;
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        // local_address is "ADDR:PORT", st 0A is LISTEN, the inode is the tenth field.
        if (fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
      }
    }
    const fds = readdirSync(`/proc/${pid}/fd`);
    return fds.some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
      } catch {
        return false;
      }
    });
  } catch {
    return true;
  }
}

/**
 * Starts `entry` (relative to the repo) with Node 24 as its own process and waits for /healthz on `port`,
 * answered by that process: a health answer from another process on the port (another test's server) is not
 * this one's, and a child that cannot listen exits, which fails the start with its output.
 */
export async function startProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  port: number,
): Promise<RunningProcess> {
  const child = spawn(`${root}node_modules/.bin/node`, [`${root}${entry}`], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000; // generous: a loaded CI machine starts six processes at once
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy && listensOn(child.pid!, port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    child,
    output: () => output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** What each process reads to listen on, and to reach, the services on these loopback ports: `<NAME>_PORT`, `<NAME>_URL`. */
export function serviceAddresses(ports: Record<string, number>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ports).flatMap(([name, port]) => [
      [`${name.toUpperCase()}_PORT`, String(port)],
      [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${port}`],
    ]),
  );
}

export function natsServerBinary(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim();
  const binary =
    onPath || ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(existsSync);
  if (!binary) throw new Error('nats-server not found: install it (apt-get install nats-server) or put it on PATH.');
  return binary;
}

export interface NatsServer {
  url: string;
  /** The running server's process id (it changes with a restart). */
  readonly pid: number;
  /** Stops the server (SIGKILL by default: a crash) and starts it again on the same port and store. */
  restart(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/** A throwaway JetStream server of its own (free port, store in a temp folder), so a test can restart it. */
export async function startNatsServer(): Promise<NatsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'nats-'));
  const port = await freePort();
  writeFileSync(`${dir}/nats.conf`, `listen: 127.0.0.1:${port}\njetstream { store_dir: "${dir}/js" }\n`);
  let server: ChildProcess;
  const launch = async () => {
    server = spawn(natsServerBinary(), ['-c', `${dir}/nats.conf`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 15_000;
    while (!output.includes('Server is ready')) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill(signal);
    await exited;
  };
  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    get pid() {
      return server.pid!;
    },
    async restart(signal = 'SIGKILL') {
      await halt(signal);
      await launch();
    },
    async stop() {
      await halt('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RunningApp {
  url: string;
  /** The fresh database the app runs on. */
  databaseUrl: string;
  /** Everything it printed, and its standard output alone. */
  output(): string;
  stdout(): string;
  stop(): Promise<void>;
}

/**
 * The whole app as `npm start` runs it on its embedded defaults (in-process events, the mail catcher and its
 * inbox, embedded S3, no model), in a child process on a free port and a fresh database; ready once /readyz
 * answers. `env` adds to (or overrides) what the launcher gets.
 */
export async function startApp(name: string, env: Record<string, string>): Promise<RunningApp> {
  // A free port can be taken by another suite between our check and the app's listen: start again then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAppOnce(name, env);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startAppOnce(name: string, env: Record<string, string>): Promise<RunningApp> {
  const db = await freshDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const inherited: Record<string, string | undefined> = { ...process.env };
  for (const variable of ['NATS_URL', 'SMTP_URL', 'S3_ENDPOINT', 'OPENAI_API_KEY', 'ENRICHMENT_WEBHOOK_URL'])
    delete inherited[variable];
  const child = spawn(`${root}node_modules/.bin/node`, [`${root}scripts/start.ts`], {
    env: { ...inherited, PORT: String(port), PUBLIC_URL: url, DATABASE_URL: db.url, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let output = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the app exited with ${child.exitCode}:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, databaseUrl: db.url, output: () => output, stdout: () => stdout, stop };
}

/**
 * A cookie-keeping client of the gateway at `baseUrl`, as a browser is: same-origin, JSON bodies, the session
 * cookie kept from answer to answer. Each call may add headers (e.g. a traceparent); `onSession` sees every
 * session token the gateway sets (not the empty one of a logout).
 */
export function gatewayBrowser(baseUrl: string, onSession?: (token: string) => void) {
  let cookie = '';
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
        origin: baseUrl,
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const set = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
    if (set) {
      cookie = set.split(';')[0]!;
      if (cookie.length > 'sid='.length) onSession?.(cookie.slice('sid='.length));
    }
    return { status: response.status, body: (await response.json()) as { message?: string; [key: string]: unknown } };
  };
}
