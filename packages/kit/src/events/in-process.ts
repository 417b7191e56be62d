import type { EventEnvelope, EventName } from '@app/contracts';
import { decodeEvent, type EventBus, type EventHandler, type Subscription } from './bus.ts';

/**
 * The single-process transport. `publish` runs every subscriber before it resolves, and the outbox
 * marks an event published only then, so a crash mid-handling leaves it in the outbox to be relayed
 * again on the next start: no event is lost even without a broker.
 */
export function inProcessBus(): EventBus {
  const subscriptions = new Map<string, Subscription[]>();
  const listeners = new Map<string, EventHandler[]>();

  return {
    kind: 'in-process',
    async publish(event: EventEnvelope) {
      // Round-trip through JSON so handlers see exactly what JetStream would deliver.
      const delivered = decodeEvent(JSON.stringify(event));
      for (const listener of listeners.get(event.name) ?? []) {
        listener(delivered).catch(() => {});
      }
      const failures: unknown[] = [];
      for (const subscription of subscriptions.get(event.name) ?? []) {
        try {
          await subscription.handle(delivered as never);
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length)
        throw new AggregateError(failures, `${failures.length} subscriber(s) failed on ${event.name}`);
    },
    async subscribe<N extends EventName>(subscription: Subscription<N>) {
      const list = subscriptions.get(subscription.event) ?? [];
      if (list.some((existing) => existing.subscriber === subscription.subscriber)) return;
      list.push(subscription as unknown as Subscription);
      subscriptions.set(subscription.event, list);
    },
    async listen<N extends EventName>(event: N, handle: EventHandler<N>) {
      listeners.set(event, [...(listeners.get(event) ?? []), handle as unknown as EventHandler]);
    },
    async close() {
      subscriptions.clear();
      listeners.clear();
    },
  };
}
