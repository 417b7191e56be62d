import { describe, expect, it } from 'vitest';
import { batched } from '../src/batch.ts';
import { metrics } from '../src/metrics.ts';

/** A statement that answers when told to: records each batch and each lone call. */
function recorder(options: { failBatchWith?: (items: number[]) => boolean; short?: boolean; name?: string } = {}) {
  const batches: number[][] = [];
  const alone: number[] = [];
  const releases: Array<() => void> = [];
  const gate = () => new Promise<void>((resolve) => releases.push(resolve));
  const call = batched<number, number>({
    name: options.name ?? 'test',
    runBatch: async (items) => {
      batches.push(items);
      await gate();
      if (options.failBatchWith?.(items)) throw new Error('deadlock detected');
      const answers = items.map((item) => item * 10);
      return options.short ? answers.slice(1) : answers;
    },
    runOne: async (item) => {
      alone.push(item);
      await gate();
      if (item < 0) throw new Error(`bad item ${item}`);
      return item * 10;
    },
    key: (item) => String(Math.abs(item) % 100),
    max: 3,
  });
  /** Lets every statement waiting so far answer, then the callbacks run. */
  const release = async () => {
    for (let round = 0; round < 10; round++) {
      releases.splice(0).forEach((resolve) => resolve());
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { call, batches, alone, release };
}

describe('batched', () => {
  it('runs a call alone when nothing is in flight, with no wait and no batch', async () => {
    const { call, batches, alone, release } = recorder();
    const answer = call(7);
    expect(alone).toEqual([7]); // started at once, before any timer or turn of the loop
    await release();
    expect(await answer).toBe(70);
    expect(batches).toEqual([]);
  });

  it('sends the calls made while a batch is in flight together next, each caller getting its own answer', async () => {
    const { call, batches, alone, release } = recorder();
    const first = call(1);
    const rest = [call(2), call(3), call(4)];
    expect(batches).toEqual([]); // waiting for the first
    await release();
    expect(alone).toEqual([1]);
    expect(batches).toEqual([[2, 3, 4]]);
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('never puts two items of one key in a batch, keeps their order, and takes at most `max`', async () => {
    const { call, batches, release } = recorder();
    const first = call(1);
    // 102 and 202 share key 2 with 2; 5 and 6 are beyond max 3 for the first batch.
    const answers = [call(2), call(102), call(3), call(202), call(5), call(6)];
    await release();
    await Promise.all([first, ...answers]);
    expect(batches).toEqual([
      [2, 3, 5],
      [102, 6],
    ]);
    expect(batches.flat().filter((item) => item % 100 === 2)).toEqual([2, 102]); // in order, one per batch
    // 202 ran alone: the only item left for the last batch.
    expect(await answers[3]).toBe(2020);
  });

  it('a batch that fails runs each item alone: the bad one fails its caller only', async () => {
    const { call, batches, alone, release } = recorder({ failBatchWith: (items) => items.some((item) => item < 0) });
    const first = call(1);
    const good = call(2);
    const bad = call(-3);
    const other = call(4);
    const badResult = bad.catch((error: Error) => error.message);
    await release();
    expect(batches).toEqual([[2, -3, 4]]);
    expect(alone.sort()).toEqual([-3, 1, 2, 4]);
    expect(await first).toBe(10);
    expect(await good).toBe(20);
    expect(await other).toBe(40);
    expect(await badResult).toBe('bad item -3');
  });

  it('a batch that answers for fewer items than it was given is not trusted: each item runs alone', async () => {
    const { call, alone, release } = recorder({ short: true });
    const first = call(1);
    const answers = [call(2), call(3)];
    await release();
    await first;
    expect(await Promise.all(answers)).toEqual([20, 30]);
    expect(alone.sort()).toEqual([1, 2, 3]);
  });

  it('goes back to lone calls once the queue is empty', async () => {
    const { call, batches, alone, release } = recorder();
    const first = [call(1), call(2), call(3)];
    await release();
    await Promise.all(first);
    const later = call(9);
    expect(alone).toEqual([1, 9]);
    await release();
    expect(await later).toBe(90);
    expect(batches).toEqual([[2, 3]]);
  });

  it('counts each statement by the calls it served, and the batches run again item by item', async () => {
    const { call, release } = recorder({ name: 'test.metrics', failBatchWith: (items) => items.includes(5) });
    const first = call(1);
    const rest = [call(2), call(3), call(4)];
    await release();
    await Promise.all([first, ...rest]);
    const failing = [call(6), call(5), call(7)];
    await release();
    await Promise.all(failing);
    const sizes = (await metrics.statementBatchSize.get()).values.filter((v) => v.labels.statement === 'test.metrics');
    const value = (name: string, le?: number) =>
      sizes.find((v) => v.metricName === name && (le === undefined || (v.labels as { le?: number }).le === le))?.value;
    expect(value('db_statement_batch_size_count')).toBe(4); // 1 alone, 3 together, 6 alone, 5 and 7 together
    expect(value('db_statement_batch_size_sum')).toBe(1 + 3 + 1 + 2);
    expect(value('db_statement_batch_size_bucket', 1)).toBe(2);
    const failures = (await metrics.statementBatchFailures.get()).values.find(
      (v) => v.labels.statement === 'test.metrics',
    );
    expect(failures?.value).toBe(1);
  });
});
