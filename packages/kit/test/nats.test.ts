import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@app/contracts';
import { deleteConsumers, natsUrl, uniqueId as makeId } from '@app/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger, natsBus, outboxEvent, type EventBus } from '../src/index.ts';

const logger = createLogger('test', 'silent');
const consumers: string[] = [];
const uniqueId = (prefix: string) => {
  const id = makeId(prefix);
  consumers.push(id);
  return id;
};
afterAll(() => deleteConsumers('KIT_TEST', consumers));
const open: EventBus[] = [];
const connect = async () => {
  const bus = await natsBus({ url: await natsUrl(), name: 'test', namespace: 'kit_test', logger, ackWaitMs: 1000 });
  open.push(bus);
  return bus;
};
const envelope = (sessionId: string): EventEnvelope<'session.ended'> => {
  const row = outboxEvent('session.ended', { sessionId });
  return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
};
const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

describe('NATS JetStream bus', () => {
  it('delivers to a durable consumer, once per message id', async () => {
    const bus = await connect();
    const subscriber = uniqueId('dedup');
    const marker = uniqueId('s');
    const seen: string[] = [];
    await bus.subscribe({
      event: 'session.ended',
      subscriber,
      handle: async (e) => void (e.payload.sessionId === marker && seen.push(e.id)),
    });
    const event = envelope(marker);
    await bus.publish(event);
    await bus.publish(event); // the relay re-publishing after a crash
    await until(() => seen.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([event.id]);
  });

  it('redelivers when the handler fails, and acks only after it succeeds', async () => {
    const bus = await connect();
    const marker = uniqueId('s');
    let attempts = 0;
    await bus.subscribe({
      event: 'session.ended',
      subscriber: uniqueId('retry'),
      handle: async (e) => {
        if (e.payload.sessionId !== marker) return;
        attempts++;
        if (attempts < 2) throw new Error('transient');
      },
    });
    await bus.publish(envelope(marker));
    await until(() => attempts >= 2, 8000);
    await new Promise((r) => setTimeout(r, 300));
    expect(attempts).toBe(2);
  });

  it('keeps events for a consumer that is down and delivers them when it comes back', async () => {
    const subscriber = uniqueId('offline');
    const marker = uniqueId('s');
    const first = await connect();
    await first.subscribe({ event: 'session.ended', subscriber, handle: async () => {} });
    await new Promise((r) => setTimeout(r, 200));
    await first.close();
    open.splice(open.indexOf(first), 1);

    const publisher = await connect();
    const event = envelope(marker);
    await publisher.publish(event);

    const seen: string[] = [];
    const second = await connect();
    await second.subscribe({
      event: 'session.ended',
      subscriber,
      handle: async (e) => void (e.payload.sessionId === marker && seen.push(e.id)),
    });
    await until(() => seen.length === 1);
    expect(seen).toEqual([event.id]);
  });

  it('redelivers an event whose consumer process was killed mid-handler, before its ack', async () => {
    const subscriber = uniqueId('crash');
    const marker = uniqueId('s');
    const child = spawn(process.execPath, [
      fileURLToPath(new URL('./fixtures/hanging-consumer.ts', import.meta.url)),
      await natsUrl(),
      subscriber,
      marker,
    ]);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    try {
      await until(() => output.includes('ready'), 10_000);
      const publisher = await connect();
      const event = envelope(marker);
      await publisher.publish(event);
      await until(() => output.includes('handling'), 10_000);
      child.kill('SIGKILL');

      const seen: string[] = [];
      const survivor = await connect();
      await survivor.subscribe({
        event: 'session.ended',
        subscriber,
        handle: async (e) => void (e.payload.sessionId === marker && seen.push(e.id)),
      });
      await until(() => seen.length === 1, 8000);
      expect(seen).toEqual([event.id]);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('listeners on every instance hear broadcast events', async () => {
    const a = await connect();
    const b = await connect();
    const marker = uniqueId('s');
    const heard: string[] = [];
    await a.listen('session.ended', async (e) => void (e.payload.sessionId === marker && heard.push('a')));
    await b.listen('session.ended', async (e) => void (e.payload.sessionId === marker && heard.push('b')));
    await new Promise((r) => setTimeout(r, 100));
    await a.publish(envelope(marker));
    await until(() => heard.length === 2);
    expect(heard.sort()).toEqual(['a', 'b']);
  });
});
