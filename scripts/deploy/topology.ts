/**
 * Who publishes and who reads each event, derived from the code: the producers from `EVENT_PRODUCERS`
 * (contracts), the durable subscribers from each service's `src/subscribers/*.ts`, the gateway's broadcast
 * listeners from building it against a recording bus. The NATS permissions (`npm run deploy:generate`) and the
 * KEDA triggers are written from it.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EVENT_PRODUCERS, SERVICE_NAMES, type EventName, type ServiceName } from '@app/contracts';
import type { EventBus } from '@app/kit';

const root = fileURLToPath(new URL('../../', import.meta.url));

export type ProcessName = ServiceName | 'gateway';
export const PROCESS_NAMES: readonly ProcessName[] = ['gateway', ...SERVICE_NAMES];

export interface SubscriberBinding {
  /** The durable consumer's name. */
  id: string;
  event: EventName;
  file: string;
}

export interface ProcessTopology {
  publishes: EventName[];
  /** Durable JetStream consumers, one per subscriber. */
  subscribers: SubscriberBinding[];
  /** Broadcast listeners (core NATS subscriptions): every instance hears the event. */
  listens: EventName[];
}

/** Anything, as deep as a subscriber factory looks at its dependencies while building the subscriber. */
const anything: unknown = new Proxy(function () {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : anything),
  apply: () => anything,
  construct: () => anything as object,
});

const isSubscriber = (value: unknown): value is { id: string; event: EventName } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { id?: unknown }).id === 'string' &&
  typeof (value as { event?: unknown }).event === 'string';

/**
 * The subscribers a service defines: each export of `src/subscribers/*.ts` is a subscriber or a factory of
 * one (called with stand-in dependencies, which factories only capture).
 */
export async function serviceSubscribers(service: ServiceName): Promise<SubscriberBinding[]> {
  const dir = `${root}services/${service}/src/subscribers`;
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.ts'));
  } catch {
    return [];
  }
  const found: SubscriberBinding[] = [];
  for (const name of files.sort()) {
    const file = `services/${service}/src/subscribers/${name}`;
    const module = (await import(pathToFileURL(`${root}${file}`).href)) as Record<string, unknown>;
    const before = found.length;
    // In the order of their names, as a module namespace lists them (a test's transformed module lists its
    // exports in source order instead).
    const exports = Object.keys(module)
      .sort()
      .map((key) => module[key]);
    for (const value of exports) {
      const subscriber = typeof value === 'function' ? (value as (...args: unknown[]) => unknown)(anything) : value;
      // A file may export variants of one subscriber (ai's intro draft with and without enrichment): one consumer.
      if (isSubscriber(subscriber) && !found.some((f) => f.id === subscriber.id && f.event === subscriber.event)) {
        found.push({ id: subscriber.id, event: subscriber.event, file });
      }
    }
    if (found.length === before) throw new Error(`${file} exports no subscriber (an object with id and event)`);
  }
  return found;
}

/** The events the gateway listens to, recorded while it is built (nothing is started). */
export async function gatewayListens(): Promise<EventName[]> {
  const { buildGateway, readGatewayConfig } = await import('@app/gateway');
  const listens: EventName[] = [];
  const bus: EventBus = {
    kind: 'nats',
    publish: async () => {},
    subscribe: async () => {
      throw new Error('the gateway has no durable subscribers');
    },
    listen: async (event) => void listens.push(event),
    check: async () => {},
    deadLetters: async () => [],
    replay: async () => [],
    close: async () => {},
  };
  const app = await buildGateway({
    config: readGatewayConfig({ INTERNAL_SECRET: 'topology-'.padEnd(40, 'x'), LOG_LEVEL: 'silent' }),
    bus,
    logger: false,
  });
  await app.close();
  return listens.sort();
}

export async function eventTopology(): Promise<Record<ProcessName, ProcessTopology>> {
  const topology = {} as Record<ProcessName, ProcessTopology>;
  const produced = (process: ProcessName) =>
    (Object.keys(EVENT_PRODUCERS) as EventName[]).filter((event) => EVENT_PRODUCERS[event] === process).sort();
  topology.gateway = { publishes: produced('gateway'), subscribers: [], listens: await gatewayListens() };
  for (const service of SERVICE_NAMES) {
    topology[service] = { publishes: produced(service), subscribers: await serviceSubscribers(service), listens: [] };
  }
  return topology;
}
