/**
 * The NATS users of deploy/k8s/base/nats/auth.conf against a real nats-server (a throwaway one on a free
 * port, started from the nats-server binary), each process connecting with the kit's natsBus and its
 * credentials in NATS_URL: it can do what its code does on the bus, and nothing else.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEnvelope, EventName } from '@app/contracts';
import { EVENT_PRODUCERS } from '@app/contracts';
import { freePort, natsBus, natsConnection, natsCounter, type EventBus } from '@app/kit';
import { TEST_SECRET } from '@app/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsUsers, renderNatsAuthorization, REPLAY_USER, type NatsUser } from '../scripts/deploy/nats-permissions.ts';
import { eventTopology, PROCESS_NAMES, type ProcessName, type ProcessTopology } from '../scripts/deploy/topology.ts';

const root = new URL('..', import.meta.url).pathname;
const AUTH_CONF = `${root}deploy/k8s/base/nats/auth.conf`;
const NATS_CONF = `${root}deploy/k8s/base/nats/nats.conf`;

function natsServerBinary(): string {
  const found = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(existsSync);
  const onPath = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim();
  const binary = onPath || found;
  if (!binary) {
    throw new Error(
      'nats-server not found: the NATS permission tests start their own server. Install it (apt-get install nats-server) or put it on PATH.',
    );
  }
  return binary;
}

/**
 * nats-server parses a variable's value as configuration: a password must start with a letter and hold
 * only letters and digits (as deploy/README.md generates them: `n$(openssl rand -hex 24)`).
 */
const password = () => `n${randomBytes(24).toString('hex')}`;
const passwords = Object.fromEntries(
  [...PROCESS_NAMES, REPLAY_USER].map((user) => [`NATS_${user.toUpperCase()}_PASSWORD`, password()]),
);
const admin: NatsUser = {
  user: 'admin' as ProcessName,
  passwordVariable: 'NATS_TEST_ADMIN_PASSWORD',
  publish: ['>'],
  subscribe: ['>'],
};

let topology: Record<ProcessName, ProcessTopology>;
let users: NatsUser[];
let server: ChildProcess;
let dir: string;
let port: number;
const buses = new Map<ProcessName, EventBus>();
const logged: Array<{ process: ProcessName | typeof REPLAY_USER; level: number; msg: string; subscriber?: string }> =
  [];

const envelope = (name: EventName, payload: unknown = {}): EventEnvelope =>
  ({ id: crypto.randomUUID(), name, payload, occurredAt: new Date().toISOString() }) as EventEnvelope;

const urlOf = (process: string) =>
  `nats://${process}:${passwords[`NATS_${process.toUpperCase()}_PASSWORD`] ?? passwords.admin}@127.0.0.1:${port}`;

async function connectAs(process: ProcessName | typeof REPLAY_USER): Promise<EventBus> {
  const logger = pino(
    { level: 'warn' },
    {
      write: (line: string) => {
        const { level, msg, subscriber } = JSON.parse(line) as { level: number; msg: string; subscriber?: string };
        logged.push({ process, level, msg, subscriber });
      },
    },
  );
  return natsBus({
    url: urlOf(process),
    name: process,
    logger,
    retryDelay: () => 50,
    secret: TEST_SECRET,
    producer: process === 'gateway' || process === REPLAY_USER ? undefined : process,
  });
}

async function adminInfo(consumer: string) {
  const nc = await connect({ servers: `127.0.0.1:${port}`, user: 'admin', pass: passwords.admin });
  try {
    const jsm = await jetstreamManager(nc);
    return await jsm.consumers.info('EVENTS', consumer).catch(() => null);
  } finally {
    await nc.close();
  }
}

async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  passwords.admin = password();
  topology = await eventTopology();
  users = natsUsers(topology);
  dir = mkdtempSync(join(tmpdir(), 'nats-permissions-'));
  port = await freePort();
  writeFileSync(`${dir}/auth.conf`, renderNatsAuthorization([...users, admin]));
  writeFileSync(
    `${dir}/nats.conf`,
    `listen: 127.0.0.1:${port}\njetstream { store_dir: "${dir}/js" }\ninclude ./auth.conf\n`,
  );
  server = spawn(natsServerBinary(), ['-c', `${dir}/nats.conf`], {
    env: { ...process.env, ...passwords, NATS_TEST_ADMIN_PASSWORD: passwords.admin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stderr!.on('data', (chunk) => (output += chunk));
  await eventually(async () => output.includes('Server is ready') || server.exitCode !== null, 'nats-server');
  if (server.exitCode !== null) throw new Error(`nats-server exited:\n${output}`);
  for (const process of PROCESS_NAMES) buses.set(process, await connectAs(process));
}, 30_000);

afterAll(async () => {
  for (const bus of buses.values()) await bus.close().catch(() => {});
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('NATS users and permissions', () => {
  it('the committed auth.conf is what the code gives (else: npm run deploy:generate)', () => {
    expect(
      readFileSync(AUTH_CONF, 'utf8'),
      'deploy/k8s/base/nats/auth.conf is stale: run `npm run deploy:generate`',
    ).toBe(renderNatsAuthorization(users));
  });

  it('the deployed nats.conf with auth.conf is a valid server configuration', () => {
    const result = spawnSync(natsServerBinary(), ['-c', NATS_CONF, '-t'], {
      env: { ...process.env, ...passwords, NATS_MAX_FILE_STORE: '1GB' },
      encoding: 'utf8',
    });
    expect(result.status, result.stderr + result.stdout).toBe(0);
  });

  it('each service consumes its own events through its own durable consumers', async () => {
    // Tried first, before the consumer exists: its name bound to another event is refused.
    const ai = buses.get('ai')!;
    await ai.subscribe({ subscriber: 'ai-match-bounties', event: 'user.registered', handle: async () => {} });
    await eventually(
      async () => logged.some((l) => l.subscriber === 'ai-match-bounties' && l.msg === 'consumer stopped'),
      'the refused consumer',
    );

    for (const process of PROCESS_NAMES) {
      for (const { id, event } of topology[process].subscribers) {
        await buses.get(process)!.subscribe({ subscriber: id, event, handle: async () => {} });
      }
    }
    for (const event of Object.keys(EVENT_PRODUCERS) as EventName[]) {
      await buses.get(EVENT_PRODUCERS[event])!.publish(envelope(event));
    }
    for (const process of PROCESS_NAMES) {
      for (const { id, event } of topology[process].subscribers) {
        // The payload `{}` is refused by the contract, so the consumer dead-letters and terminates it.
        const info = await eventually(async () => {
          const consumer = await adminInfo(id);
          return consumer && consumer.delivered.consumer_seq >= 1 && consumer.num_ack_pending === 0 && consumer;
        }, `consumer ${id} to pull and answer its event`);
        expect(info.config.filter_subject).toBe(`events.${event}`);
      }
    }
    const stopped = logged.filter((l) => l.msg === 'consumer stopped');
    expect(stopped.map((l) => l.subscriber)).toEqual(['ai-match-bounties']);
  });

  it("a service cannot read another service's consumer", async () => {
    const [other] = topology.mail.subscribers;
    await buses.get('referrals')!.subscribe({ subscriber: other!.id, event: other!.event, handle: async () => {} });
    await eventually(
      async () =>
        logged.some((l) => l.process === 'referrals' && l.subscriber === other!.id && l.msg === 'consumer stopped'),
      'the refusal',
    );
  });

  it('each process publishes only the events it produces', async () => {
    for (const process of PROCESS_NAMES) {
      const foreign = (Object.keys(EVENT_PRODUCERS) as EventName[]).find(
        (event) => EVENT_PRODUCERS[event] !== process,
      )!;
      await expect(buses.get(process)!.publish(envelope(foreign)), `${process} publishing ${foreign}`).rejects.toThrow(
        /permission/i,
      );
    }
  });

  it('the gateway hears the events it listens to, and no other', async () => {
    const heard: string[] = [];
    const gateway = buses.get('gateway')!;
    await gateway.listen('session.ended', async (event) => void heard.push(event.name));
    await gateway.listen('program.saved', async (event) => void heard.push(event.name));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await buses.get('programs')!.publish(
      envelope('program.saved', {
        programId: 'p1',
        name: 'Acme',
        description: '',
        website: 'acme.com',
        rewardDetails: '',
        vendorId: null,
        companyName: null,
        isActive: true,
      }),
    );
    await buses.get('auth')!.publish(envelope('session.ended', { sessionId: 's1' }));
    await eventually(async () => heard.includes('session.ended'), 'session.ended at the gateway');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual(['session.ended']);
    expect(logged.filter((l) => l.process === 'gateway' && l.msg === 'listener stopped')).toHaveLength(1);
  });

  it('the replay user gives a dead letter back to its subscriber, and can do nothing else', async () => {
    const binding = topology.ai.subscribers.find(({ event }) => event === 'program.saved')!;
    // ai's own user dead-letters the event after one failed delivery (maxDeliver 1).
    await buses.get('ai')!.close();
    const ai = await connectAs('ai');
    buses.set('ai', ai);
    const handled: string[] = [];
    let failNext = true;
    await ai.subscribe({
      subscriber: binding.id,
      event: 'program.saved',
      options: { maxDeliver: 1 },
      handle: async (event) => {
        if (failNext) {
          failNext = false;
          throw new Error('the model is down');
        }
        handled.push(event.id);
      },
    });
    const event = envelope('program.saved', {
      programId: 'p-replay',
      name: 'Acme',
      description: '',
      website: 'acme.com',
      rewardDetails: '',
      vendorId: null,
      companyName: null,
      isActive: true,
    });
    await buses.get('programs')!.publish(event);

    const replay = await connectAs(REPLAY_USER);
    try {
      const letter = await eventually(
        async () => (await replay.deadLetters(binding.id)).find((l) => l.eventId === event.id),
        'the dead letter, read by the replay user',
      );
      expect(letter.reason).toBe('max-deliveries');
      expect(handled).toEqual([]);
      expect(await replay.replay(binding.id, event.id)).toEqual([event.id]);
      await eventually(async () => handled.includes(event.id), 'the replayed event at its subscriber');
      expect((await replay.deadLetters(binding.id)).some((l) => l.eventId === event.id)).toBe(false);

      // It cannot publish an event no subscriber reads, nor read a subscriber's consumer.
      await expect(replay.publish(envelope('session.ended', { sessionId: 's1' }))).rejects.toThrow(/permission/i);
      await replay.subscribe({ subscriber: binding.id, event: 'program.saved', handle: async () => {} });
      await eventually(
        async () => logged.some((l) => l.process === REPLAY_USER && l.msg === 'consumer stopped'),
        "the refusal of the subscriber's consumer",
      );
    } finally {
      await replay.close();
    }
  });

  it('only the gateway counts rate limits in the shared KV bucket', async () => {
    const counters: Record<string, Awaited<ReturnType<typeof natsCounter>> | Error> = {};
    const connections = [];
    for (const process of ['gateway', 'auth'] as const) {
      const nc = await natsConnection(urlOf(process), `${process}-rate-limits`);
      connections.push(nc);
      counters[process] = await natsCounter(nc, { namespace: 'events', maxWindowMs: 60_000 }).catch(
        (error: Error) => error,
      );
    }
    try {
      const gateway = counters.gateway as Awaited<ReturnType<typeof natsCounter>>;
      expect((await gateway.incr('k', 60_000)).current).toBe(1);
      expect((await gateway.incr('k', 60_000)).current).toBe(2);
      const auth = counters.auth!;
      if (auth instanceof Error) expect(auth.message).toMatch(/permission|timeout/i);
      else await expect(auth.incr('k', 60_000)).rejects.toThrow(/permission|timeout/i);
    } finally {
      for (const nc of connections) await nc.close();
    }
  });
});
