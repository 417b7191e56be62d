/**
 * `npm run bench:memory`: the resident memory of the whole app as `npm start` runs it (one Node process,
 * `scripts/start.ts`: every service, the gateway, the in-process bus; here on a fresh database of the
 * PostgreSQL at DATABASE_URL / 127.0.0.1 instead of the embedded one), idle: sampled every BENCH_RSS_EVERY
 * seconds for BENCH_DURATION seconds (default 180) after it is ready, with its least-squares slope over the last
 * three quarters. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { startApp } from '../test/processes.ts';
import { numberEnv } from './lib/env.ts';
import { rssSampler, slope as rssSlope } from './lib/rss.ts';

const seconds = numberEnv('BENCH_DURATION', 180);
const every = numberEnv('BENCH_RSS_EVERY', 5);
const flat = numberEnv('BENCH_RSS_FLAT', 1);
const log = (line: string) => process.stdout.write(`${line}\n`);

const app = await startApp('bench-memory', { LOG_LEVEL: 'warn' });
try {
  const port = new URL(app.url).port;
  // The process listening on the app's port (startApp does not hand out its child).
  const listening = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = Number(/pid=(\d+)/.exec(listening)?.[1]);
  if (!pid) throw new Error(`no process found listening on ${port}: ${listening}`);
  const started = Date.now();
  const rss = rssSampler({ 'npm start': pid }, started);
  while (Date.now() - started < seconds * 1000) {
    rss.sample();
    await new Promise((resolve) => setTimeout(resolve, every * 1000));
  }
  rss.sample();
  const points = rss.samples.get('npm start')!;
  const values = points.map(([, mb]) => mb);
  // As in bench:pipeline, the first quarter is left out of the slope (start-up still settling).
  const slope = rssSlope(points.filter(([minutes]) => minutes >= seconds / 4 / 60));
  log(
    `npm start (scripts/start.ts, pid ${pid}) idle for ${seconds} s: RSS ${values[0]!.toFixed(0)} MB at ready, ${values.at(-1)!.toFixed(0)} MB at the end, max ${Math.max(...values).toFixed(0)} MB; slope ${slope.toFixed(2)} MB/min (${slope <= flat ? 'not growing' : 'GROWING'}: threshold ${flat} MB/min)`,
  );
} finally {
  await app.stop();
}
