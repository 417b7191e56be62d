import { AsyncLocalStorage } from 'node:async_hooks';

/** What a unit of work (a request, an event) carries to everything it calls: events it emits keep its request id. */
export interface WorkContext {
  requestId?: string;
  /** Set while a subscriber handles an event. */
  eventId?: string;
}

const storage = new AsyncLocalStorage<WorkContext>();

export const runInContext = <T>(context: WorkContext, work: () => T): T => storage.run(context, work);
export const currentContext = (): WorkContext => storage.getStore() ?? {};
