import { metrics } from './metrics.ts';

/**
 * Group commit for one statement: calls made while an earlier batch is in flight wait for it, then go
 * together as the next batch, up to `max` items. Under light load every call is a batch of its own (no timer,
 * no added wait); under load one round trip and one commit serve many callers where each would have paid its
 * own (bench:pipeline, "Ninth pass"). One batch in flight at a time.
 *
 * Items with the same `key` never share a batch (a statement must not claim or update the same row twice); a
 * later one waits for a later batch, in order. A batch that fails (a deadlock, one bad value) is not its
 * callers' failure: each of its items then runs alone with `runOne`, so a bad item fails only its own caller
 * and a good one succeeds as it would have without batching. Each statement's size is counted
 * (`db_statement_batch_size`, and `db_statement_batch_failures_total` for those run again item by item).
 */
export function batched<I, O>(options: {
  /** The statement's name in the metrics (`statement` label). */
  name: string;
  /** The items' statement: one answer per item, in the items' order. */
  runBatch: (items: I[]) => Promise<O[]>;
  /** One item alone: a batch of one, and each item of a batch that failed. */
  runOne: (item: I) => Promise<O>;
  key?: (item: I) => string;
  /** Items per batch at most (default 64). */
  max?: number;
}): (item: I) => Promise<O> {
  const { runBatch, runOne, key } = options;
  const labels = { statement: options.name };
  const max = options.max ?? 64;
  type Waiting = { item: I; key: string | undefined; resolve: (value: O) => void; reject: (error: unknown) => void };
  let queue: Waiting[] = [];
  let running = false;

  /** The next batch: the oldest waiting items, each key once, and the rest left waiting in their order. */
  function take(): Waiting[] {
    const batch: Waiting[] = [];
    const keys = new Set<string>();
    const rest: Waiting[] = [];
    for (const waiting of queue) {
      const fits = batch.length < max && (waiting.key === undefined || !keys.has(waiting.key));
      if (!fits) {
        rest.push(waiting);
        continue;
      }
      batch.push(waiting);
      if (waiting.key !== undefined) keys.add(waiting.key);
    }
    queue = rest;
    return batch;
  }

  const alone = (waiting: Waiting) => runOne(waiting.item).then(waiting.resolve, waiting.reject);

  async function run(batch: Waiting[]): Promise<void> {
    metrics.statementBatchSize.observe(labels, batch.length);
    if (batch.length === 1) return alone(batch[0]!);
    let answers: O[];
    try {
      answers = await runBatch(batch.map((waiting) => waiting.item));
      if (answers.length !== batch.length) throw new Error(`batch answered ${answers.length} of ${batch.length}`);
    } catch {
      metrics.statementBatchFailures.inc(labels);
      await Promise.all(batch.map(alone));
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(answers[index]!));
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length) await run(take());
    } finally {
      running = false;
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, key: key?.(item), resolve, reject });
      if (!running) void drain();
    });
}
