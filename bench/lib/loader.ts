/**
 * The load generator in its own process (so it never shares an event loop with what it measures):
 * runs one autocannon run per `run` message and answers with the figures.
 */
import autocannon from 'autocannon';

export interface RunRequest {
  type: 'run';
  id: number;
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** Total requests per second to hold (autocannon overallRate); unset: as fast as the target answers. */
  rate?: number;
}

export interface RunResult {
  type: 'result';
  id: number;
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerSecond: number;
}

process.on('message', async (message: RunRequest | { type: 'close' }) => {
  if (message.type === 'close') process.exit(0);
  if (message.type !== 'run') return;
  const result = await autocannon({
    url: message.url,
    headers: message.headers,
    connections: message.connections,
    duration: message.durationSeconds,
    pipelining: 1,
    ...(message.rate ? { overallRate: message.rate } : {}),
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  const reply: RunResult = {
    type: 'result',
    id: message.id,
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerSecond: result.throughput.average,
  };
  process.send?.(reply);
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', port: 0 });
