import { readdirSync, readFileSync } from 'node:fs';
import { EVENT_PRODUCERS, events, SERVICE_NAMES, type EventName } from '@app/contracts';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

/** Every `emit('event.name'` written in a service's source. */
function emitted(service: string): Set<string> {
  const found = new Set<string>();
  const dir = `${root}services/${service}/src`;
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.includes('generated')) continue;
    for (const match of readFileSync(`${dir}/${file}`, 'utf8').matchAll(/\bemit\(\s*'([a-z_.]+)'/g))
      found.add(match[1]!);
  }
  return found;
}

describe('EVENT_PRODUCERS', () => {
  it('names one producer for every event of the contract', () => {
    expect(Object.keys(EVENT_PRODUCERS).sort()).toEqual(Object.keys(events).sort());
  });

  it('matches what the services emit: no service emits an event it does not own', () => {
    for (const service of SERVICE_NAMES) {
      const foreign = [...emitted(service)].filter((event) => EVENT_PRODUCERS[event as EventName] !== service);
      expect(foreign, `${service} emits events EVENT_PRODUCERS gives to another service`).toEqual([]);
    }
  });
});
