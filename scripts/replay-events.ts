/**
 * `npm run events:replay -- --subscriber <id> [--id <event id> | --all]`: lists a subscriber's dead letters,
 * or gives those its handler gave up on (reason `max-deliveries`, after `maxDeliver` failed attempts) back to
 * that subscriber only, once each. Refused messages (unsigned, forged, wrong producer, invalid payload) are
 * listed but never replayed; a replayed message is the original signed one, checked again on delivery.
 * The bus is NATS when NATS_URL is set (NATS_NAMESPACE, a user allowed to read the `<STREAM>_DEAD` stream
 * and publish the event), else the in-process bus in DATABASE_URL (`npm start`'s, named on its terminal).
 */
import { parseArgs } from 'node:util';
import { SERVICE_NAMES } from '@app/contracts';
import { createLogger, inProcessBus, natsBus, StartupError, type EventBus } from '@app/kit';
import { serviceSubscribers } from './deploy/topology.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const usage = 'Usage: npm run events:replay -- --subscriber <id> [--id <event id> | --all]';
let args: { subscriber?: string | undefined; id?: string | undefined; all?: boolean | undefined };
try {
  ({ values: args } = parseArgs({
    options: { subscriber: { type: 'string' }, id: { type: 'string' }, all: { type: 'boolean' } },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (!args.subscriber) fail(usage);
if (args.id && args.all) fail(`--id and --all: one or the other.\n${usage}`);

const known = (await Promise.all(SERVICE_NAMES.map((service) => serviceSubscribers(service)))).flat();
if (!known.some((subscriber) => subscriber.id === args.subscriber)) {
  fail(`Unknown subscriber ${args.subscriber} (subscribers: ${known.map((s) => s.id).join(', ')})`);
}

const env = process.env;
if (!env.INTERNAL_SECRET) fail('Invalid configuration:\n  INTERNAL_SECRET: required (the same as the services)');
const logger = createLogger('replay', env.LOG_LEVEL || 'warn');
let bus: EventBus;
try {
  if (env.NATS_URL) {
    bus = await natsBus({
      url: env.NATS_URL,
      name: 'events-replay',
      namespace: env.NATS_NAMESPACE || 'events',
      logger,
      secret: env.INTERNAL_SECRET,
    });
  } else if (env.DATABASE_URL) {
    bus = await inProcessBus({ databaseUrl: env.DATABASE_URL, logger, secret: env.INTERNAL_SECRET });
  } else {
    fail("Set NATS_URL (services as separate processes) or DATABASE_URL (npm start's in-process bus).");
  }
} catch (error) {
  fail(error instanceof StartupError ? error.message : String(error));
}

try {
  const subscriber = args.subscriber;
  if (args.id || args.all) {
    const replayed = await bus.replay(subscriber, args.id);
    if (args.id && !replayed.length) {
      fail(`No dead letter of ${subscriber} for event ${args.id} that can be replayed (reason max-deliveries).`);
    }
    console.log(
      `Replayed ${replayed.length} event(s) to ${subscriber}${replayed.length ? `: ${replayed.join(', ')}` : ''}`,
    );
  } else {
    const letters = await bus.deadLetters(subscriber);
    if (!letters.length) console.log(`${subscriber} has no dead letters.`);
    for (const letter of letters) {
      const replayable = letter.reason === 'max-deliveries' ? '' : '  (refused: not replayable)';
      console.log(`${letter.at}  ${letter.eventId ?? '-'}  ${letter.name ?? '-'}  ${letter.reason}${replayable}`);
    }
  }
} finally {
  await bus.close();
}
