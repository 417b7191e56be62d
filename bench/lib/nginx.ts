/** nginx (Debian's package) as a plain reverse proxy in front of the upstream, from a temp dir. */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort, withChildren } from './processes.ts';

export interface Nginx {
  port: number;
  /** Master + worker. */
  pids(): number[];
  version: string;
  stop(): Promise<void>;
}

/** The upstream: its TCP port on 127.0.0.1, or a Unix socket's path. */
export type NginxUpstream = number | { socket: string };

export function nginxConfig(dir: string, listenPort: number, upstream: NginxUpstream): string {
  const server = typeof upstream === 'number' ? `127.0.0.1:${upstream}` : `unix:${upstream.socket}`;
  return `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream service {
    server ${server};
    keepalive 64;
    keepalive_requests 1000000;
  }
  # Node closes no keep-alive connection after N requests; nginx would after 1000 (a reconnect mid-run).
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${listenPort};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
}

export async function startNginx(upstream: NginxUpstream, binary = process.env.NGINX_BIN ?? 'nginx'): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  // Workers drop to an unprivileged user when the master runs as root; they must reach the temp dirs.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstream));

  const version = await new Promise<string>((resolve, reject) => {
    const probe = spawn(binary, ['-v'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    probe.stderr.on('data', (chunk) => (text += chunk));
    probe.once('error', (error) =>
      reject(new Error(`cannot run ${binary} (apt-get install -y nginx-light): ${error.message}`)),
    );
    probe.once('exit', () => resolve(text.trim().replace(/^nginx version: /, '')));
  });

  const child: ChildProcess = spawn(binary, ['-e', join(dir, 'error.log'), '-p', `${dir}/`, '-c', conf], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitForPort(port).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  if (exited) throw new Error('nginx exited at start; see its error log');

  return {
    port,
    version,
    pids: () => withChildren(child.pid!),
    async stop() {
      if (!exited) {
        const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await done;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
