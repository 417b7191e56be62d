import type { FastifyBaseLogger } from 'fastify';

/**
 * The retention check as a job of the service: once at start, then every `intervalMs` (timers unref'd,
 * so it never keeps the process up). Answers how to stop it.
 */
export function scheduleRetentionCheck(
  earnRetentionBonuses: () => Promise<number>,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => void {
  const run = () =>
    void earnRetentionBonuses().then(
      (earned) => earned > 0 && log.info({ earned }, 'retention bonuses earned'),
      (error: unknown) => log.error({ err: error }, 'retention check failed'),
    );
  const timer = setInterval(run, intervalMs);
  timer.unref();
  const first = setTimeout(run, 0);
  first.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
}
