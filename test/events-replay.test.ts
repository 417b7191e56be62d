/**
 * `npm run events:replay`: lists a subscriber's dead letters and gives one its handler gave up on back to
 * that subscriber, once (npm start's in-process bus here; the bus contract covers NATS).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger, inProcessBus, outboxEvent, type EventBus } from '@app/kit';
import { eventually, freshDatabase, TEST_SECRET } from '@app/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUBSCRIBER = 'profiles-user'; // a real subscriber id: the command refuses unknown ones

let db: Awaited<ReturnType<typeof freshDatabase>>;
let bus: EventBus;
beforeAll(async () => {
  db = await freshDatabase();
  bus = await inProcessBus({
    databaseUrl: db.url,
    logger: createLogger('test', 'silent'),
    secret: TEST_SECRET,
    retryDelay: () => 50,
  });
});
afterAll(async () => {
  await bus?.close();
  await db?.drop();
});

const replay = (...args: string[]) =>
  spawnSync(`${root}node_modules/.bin/node`, [`${root}scripts/replay-events.ts`, ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: db.url, INTERNAL_SECRET: TEST_SECRET },
    encoding: 'utf8',
  });

it('lists dead letters, replays one to its subscriber once, and refuses unknown subscribers', async () => {
  let failing = true;
  const handled: string[] = [];
  await bus.subscribe({
    event: 'user.registered',
    subscriber: SUBSCRIBER,
    options: { maxDeliver: 2 },
    handle: async (event) => {
      if (failing) throw new Error('down');
      handled.push(event.id);
    },
  });
  const row = outboxEvent('user.registered', {
    userId: '00000000-0000-4000-8000-000000000001',
    email: 'replay@example.com',
    firstName: 'R',
    lastName: 'P',
    companyName: 'C',
  });
  await bus.publish({ id: row.id, name: row.name, payload: row.payload, occurredAt: row.occurredAt.toISOString() });
  await eventually(async () => (await bus.deadLetters(SUBSCRIBER)).length === 1);

  const listed = replay('--subscriber', SUBSCRIBER);
  expect(listed.status).toBe(0);
  expect(listed.stdout).toMatch(new RegExp(`${row.id}  user\\.registered  max-deliveries\\n`));

  failing = false;
  const done = replay('--subscriber', SUBSCRIBER, '--id', row.id);
  expect(done.stdout.trim()).toBe(`Replayed 1 event(s) to ${SUBSCRIBER}: ${row.id}`);
  await eventually(async () => handled.length === 1);
  expect(handled).toEqual([row.id]);

  const again = replay('--subscriber', SUBSCRIBER, '--id', row.id);
  expect(again.status).toBe(1);
  expect(again.stderr).toContain('No dead letter');

  const unknown = replay('--subscriber', 'nobody');
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toMatch(/^Unknown subscriber nobody \(subscribers: .*profiles-user/);
});
