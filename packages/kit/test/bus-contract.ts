import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@app/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_SECRET, uniqueId } from '@app/testing';
import { eventCodec, metrics, outboxEvent, type EventBus } from '../src/index.ts';

/** A transport under test: new connections to one shared broker (or database). */
export interface Transport {
  kind: 'nats' | 'in-process';
  /** A new bus instance (another process, as far as delivery goes), acking within 1 s, retrying fast. */
  connect(): Promise<EventBus>;
  /** What the crash fixture needs to reach the same broker. */
  url(): Promise<string>;
  /** Called with every subscriber id a test used, for cleanup. */
  created?: (subscriber: string) => void;
  /** Puts a message on the transport as an attacker with access to it would: no bus, no signing. */
  inject(name: string, data: string): Promise<void>;
  /** What a subscriber refused and dead-lettered: the event id and the reason. */
  deadLetters(subscriber: string): Promise<Array<{ eventId: string | null; reason: string }>>;
}

const envelope = (sessionId: string): EventEnvelope<'session.ended'> => {
  const row = outboxEvent('session.ended', { sessionId });
  return { id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() };
};

const until = async (check: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 400));
/** A counter's value for these labels in this process's metrics (0 when never counted). */
const counted = async (counter: typeof metrics.redeliveries | typeof metrics.deadLetters, labels: object) =>
  (await counter.get()).values.find((value) =>
    Object.entries(labels).every(([key, wanted]) => value.labels[key as never] === wanted),
  )?.value ?? 0;
const eventually = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * The delivery contract both transports keep, so what passes on `npm start`'s in-process bus behaves
 * the same on NATS: durable, at least once, once per event id, each subscriber on its own.
 */
export function describeBusContract(transport: Transport) {
  const open: EventBus[] = [];
  const connect = async () => {
    const bus = await transport.connect();
    open.push(bus);
    return bus;
  };
  const id = (prefix: string) => {
    const value = uniqueId(prefix);
    transport.created?.(value);
    return value;
  };

  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });

  describe(`${transport.kind} bus contract`, () => {
    it('delivers to each subscriber, once per event id', async () => {
      const bus = await connect();
      const marker = id('s');
      const seen: string[] = [];
      for (const name of ['a', 'b']) {
        await bus.subscribe({
          event: 'session.ended',
          subscriber: id(name),
          handle: async (e) => void (e.payload.sessionId === marker && seen.push(`${name}:${e.id}`)),
        });
      }
      const event = envelope(marker);
      await bus.publish(event);
      await bus.publish(event); // the relay publishing again after a crash
      await until(() => seen.length >= 2);
      await settle();
      expect(seen.sort()).toEqual([`a:${event.id}`, `b:${event.id}`]);
    });

    it('retries a failing subscriber with backoff, without re-running or holding up the others', async () => {
      const bus = await connect();
      const marker = id('s');
      const log: string[] = [];
      let failures = 0;
      await bus.subscribe({
        event: 'session.ended',
        subscriber: id('failing'),
        handle: async (e) => {
          if (!e.payload.sessionId.startsWith(marker)) return;
          log.push(`failing:${e.payload.sessionId}`);
          if (e.payload.sessionId === `${marker}-1` && failures < 2) {
            failures++;
            throw new Error('transient');
          }
        },
      });
      await bus.subscribe({
        event: 'session.ended',
        subscriber: id('healthy'),
        handle: async (e) =>
          void (e.payload.sessionId.startsWith(marker) && log.push(`healthy:${e.payload.sessionId}`)),
      });
      await bus.publish(envelope(`${marker}-1`));
      await bus.publish(envelope(`${marker}-2`));
      await until(() => log.filter((entry) => entry === `failing:${marker}-1`).length === 3);
      await until(() => log.includes(`failing:${marker}-2`));
      await settle();
      // The healthy subscriber saw each event once; the failing one got its failed event three times...
      expect(log.filter((e) => e.startsWith('healthy')).sort()).toEqual([`healthy:${marker}-1`, `healthy:${marker}-2`]);
      expect(log.filter((e) => e === `failing:${marker}-1`)).toHaveLength(3);
      expect(log.filter((e) => e === `failing:${marker}-2`)).toHaveLength(1);
      // ...and its next event did not wait for the failed one to succeed.
      expect(log.indexOf(`failing:${marker}-2`)).toBeLessThan(log.lastIndexOf(`failing:${marker}-1`));
    });

    it('keeps events for a subscriber that is down and delivers them when it comes back', async () => {
      const subscriber = id('offline');
      const marker = id('s');
      const first = await connect();
      await first.subscribe({ event: 'session.ended', subscriber, handle: async () => {} });
      await settle();
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

    it('gives a new subscriber the events published before it first subscribed', async () => {
      const publisher = await connect();
      const marker = id('s');
      const event = envelope(marker);
      await publisher.publish(event);
      const seen: string[] = [];
      await publisher.subscribe({
        event: 'session.ended',
        subscriber: id('late'),
        handle: async (e) => void (e.payload.sessionId === marker && seen.push(e.id)),
      });
      await until(() => seen.length === 1);
      expect(seen).toEqual([event.id]);
    });

    it('delivers again an event whose subscriber process was killed mid-handler, before its ack', async () => {
      const subscriber = id('crash');
      const marker = id('s');
      const child = spawn(process.execPath, [
        fileURLToPath(new URL('./fixtures/hanging-consumer.ts', import.meta.url)),
        transport.kind,
        await transport.url(),
        subscriber,
        marker,
      ]);
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      try {
        await until(() => output.includes('ready'), 15_000);
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
        await until(() => seen.length === 1, 10_000);
        expect(seen).toEqual([event.id]);
      } finally {
        child.kill('SIGKILL');
      }
    });

    it('broadcasts to the listeners of every instance', async () => {
      const a = await connect();
      const b = await connect();
      const marker = id('s');
      const heard: string[] = [];
      await a.listen('session.ended', async (e) => void (e.payload.sessionId === marker && heard.push('a')));
      await b.listen('session.ended', async (e) => void (e.payload.sessionId === marker && heard.push('b')));
      await new Promise((r) => setTimeout(r, 100));
      await a.publish(envelope(marker));
      await until(() => heard.length >= 1);
      await settle();
      expect(heard.sort()).toEqual(['a', 'b']);
    });

    it('dead-letters unsigned, forged, tampered and foreign-producer events without handling them', async () => {
      const bus = await connect();
      const subscriber = id('guarded');
      const marker = id('s');
      const handled: string[] = [];
      await bus.subscribe({
        event: 'session.ended',
        subscriber,
        handle: async (e) => void (e.payload.sessionId.startsWith(marker) && handled.push(e.payload.sessionId)),
      });
      const genuine = eventCodec(TEST_SECRET);
      const attacks: Record<string, string> = {
        unsigned: JSON.stringify(envelope(`${marker}-unsigned`)),
        // Signed with a key derived from another secret.
        forged: eventCodec('another-secret-0123456789abcdef-0123456789').encode(envelope(`${marker}-forged`)),
        // A genuine message whose payload was changed on the way.
        tampered: genuine.encode(envelope(`${marker}-original`)).replace(`${marker}-original`, `${marker}-tampered`),
        // Correctly signed, but by a service that does not produce session.ended (auth does).
        'wrong-producer': eventCodec(TEST_SECRET, 'mail').encode(envelope(`${marker}-wrong-producer`)),
      };
      for (const data of Object.values(attacks)) await transport.inject('session.ended', data);
      await bus.publish(envelope(`${marker}-genuine`));

      // A changed payload no longer matches its signature: refused as forged.
      const reasons: Record<string, string> = { tampered: 'forged' };
      const expected = Object.entries(attacks).map(
        ([attack, data]) => `${reasons[attack] ?? attack}:${(JSON.parse(data) as { id: string }).id}`,
      );
      await until(() => handled.length >= 1);
      // (A new durable subscriber also gets what the stream kept from earlier runs: only this test's count.)
      const ours = async () =>
        (await transport.deadLetters(subscriber))
          .map((letter) => `${letter.reason}:${letter.eventId}`)
          .filter((letter) => expected.some((mine) => mine.endsWith(letter.slice(letter.indexOf(':')))));
      const end = Date.now() + 8000;
      while ((await ours()).length < expected.length && Date.now() < end) await settle();
      await settle();
      expect(handled).toEqual([`${marker}-genuine`]);
      expect((await ours()).sort()).toEqual(expected.sort());
      // Terminated, not retried: nothing comes back after a retry delay.
      await settle();
      expect(await ours()).toHaveLength(expected.length);
      // Refused messages are never replayed as valid.
      expect(await bus.replay(subscriber)).toEqual([]);
      await settle();
      expect(handled).toEqual([`${marker}-genuine`]);
    });

    it('dead-letters an event after maxDeliver failed attempts, then replays it to that subscriber only, once', async () => {
      const bus = await connect();
      const capped = id('capped');
      const marker = id('s');
      let broken = true;
      const attempts: string[] = [];
      const handled: string[] = [];
      const bystander: string[] = [];
      await bus.subscribe({
        event: 'session.ended',
        subscriber: capped,
        options: { maxDeliver: 3 },
        handle: async (e) => {
          if (e.payload.sessionId !== marker) return;
          attempts.push(e.id);
          if (broken) throw new Error('the model is down');
          handled.push(e.id);
        },
      });
      await bus.subscribe({
        event: 'session.ended',
        subscriber: id('bystander'),
        handle: async (e) => void (e.payload.sessionId === marker && bystander.push(e.id)),
      });
      const event = envelope(marker);
      await bus.publish(event);
      const letters = async () => (await bus.deadLetters(capped)).filter((letter) => letter.eventId === event.id);
      await eventually(async () => (await letters()).length === 1);
      expect((await letters()).map((letter) => [letter.reason, letter.name])).toEqual([
        ['max-deliveries', 'session.ended'],
      ]);
      await settle();
      expect(attempts).toHaveLength(3); // the cap, then no more
      // The metrics count where the bus does it: attempts 2 and 3 were redeliveries, then one dead letter.
      expect(await counted(metrics.redeliveries, { subscriber: capped })).toBe(2);
      expect(await counted(metrics.deadLetters, { subscriber: capped, reason: 'max-deliveries' })).toBe(1);

      broken = false;
      expect(await bus.replay(capped, event.id)).toEqual([event.id]);
      await until(() => handled.length === 1);
      await settle();
      expect(handled).toEqual([event.id]);
      expect(attempts).toHaveLength(4);
      // The other subscriber of the event handled it once, and not again with the replay.
      expect(bystander).toEqual([event.id]);
      // Given back once: the dead letter is gone.
      expect(await letters()).toEqual([]);
      expect(await bus.replay(capped, event.id)).toEqual([]);
      // A replay is a new delivery, not a redelivery; nothing was counted twice.
      expect(await counted(metrics.redeliveries, { subscriber: capped })).toBe(2);
      expect(await counted(metrics.deadLetters, { subscriber: capped, reason: 'max-deliveries' })).toBe(1);
    });

    it('runs up to `concurrency` handlers of a subscriber at once', async () => {
      const bus = await connect();
      const marker = id('s');
      let running = 0;
      let peak = 0;
      const done: string[] = [];
      await bus.subscribe({
        event: 'session.ended',
        subscriber: id('parallel'),
        options: { concurrency: 3 },
        handle: async (e) => {
          if (!e.payload.sessionId.startsWith(marker)) return;
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 300));
          running--;
          done.push(e.id);
        },
      });
      for (let i = 0; i < 3; i++) await bus.publish(envelope(`${marker}-${i}`));
      await until(() => done.length === 3);
      expect(peak).toBe(3);
    });

    it('keeps a message with its instance while a handler works past the ack wait (progress signals)', async () => {
      const subscriber = id('slow');
      const marker = id('s');
      const starts: string[] = [];
      const finished: string[] = [];
      const handle = (instance: string) => async (e: EventEnvelope<'session.ended'>) => {
        if (e.payload.sessionId !== marker) return;
        starts.push(instance);
        // Three ack waits (1 s in these tests) of work: a slow model call.
        await new Promise((r) => setTimeout(r, 3000));
        finished.push(instance);
      };
      const a = await connect();
      const b = await connect();
      await a.subscribe({ event: 'session.ended', subscriber, handle: handle('a') });
      await b.subscribe({ event: 'session.ended', subscriber, handle: handle('b') });
      await a.publish(envelope(marker));
      await until(() => finished.length === 1, 10_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(starts).toHaveLength(1);
      expect(finished).toEqual(starts);
    }, 20_000);

    it('does not let listeners hear a forged broadcast', async () => {
      const bus = await connect();
      const marker = id('s');
      const heard: string[] = [];
      await bus.listen('session.ended', async (e) => void (e.payload.sessionId.startsWith(marker) && heard.push(e.id)));
      await new Promise((r) => setTimeout(r, 100));
      await transport.inject('session.ended', JSON.stringify(envelope(`${marker}-forged`)));
      const event = envelope(`${marker}-genuine`);
      await bus.publish(event);
      await until(() => heard.length >= 1);
      await settle();
      expect(heard).toEqual([event.id]);
    });
  });
}
