import { randomUUID } from 'node:crypto';
import type { WebhookDelivery as DeliveryView, WebhookEndpoint as EndpointView } from '@app/contracts';
import type { Tx } from './db.ts';
import type { WebhookDelivery, WebhookEndpoint } from './generated/prisma/client.ts';
import { isUuid } from './vendor-repository.ts';
import { secretHint } from './webhook-sender.ts';

/** Data access for webhook endpoints and their deliveries: no HTTP, no events. */

export const MAX_WEBHOOKS = 10;
/** How many deliveries an endpoint's history shows. */
export const DELIVERY_HISTORY = 50;

export const endpointsOf = (db: Tx, vendorId: string) =>
  db.webhookEndpoint.findMany({ where: { vendorId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

/** The endpoint of this workspace, or null (another workspace's endpoint is not found either). */
export const findEndpoint = (db: Tx, vendorId: string, endpointId: string) =>
  isUuid(endpointId) ? db.webhookEndpoint.findFirst({ where: { id: endpointId, vendorId } }) : Promise.resolve(null);

export const deliveriesOf = (db: Tx, endpointId: string) =>
  db.webhookDelivery.findMany({
    where: { endpointId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: DELIVERY_HISTORY,
  });

/** The JSON body every attempt of a delivery sends: { type, timestamp, data }. */
export const webhookBody = (type: string, timestamp: string, data: unknown) =>
  JSON.stringify({ type, timestamp, data });

/**
 * Queues one event for every endpoint of a verified workspace subscribed to its type, once per event id and
 * endpoint (a redelivered event adds nothing). Answers how many deliveries were added.
 */
export async function enqueueForVendor(
  tx: Tx,
  vendorId: string,
  event: { id: string; type: string; occurredAt: string; data: unknown },
): Promise<number> {
  if (!isUuid(vendorId)) return 0;
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { vendorId, events: { has: event.type }, vendor: { verifiedAt: { not: null } } },
    select: { id: true },
  });
  if (!endpoints.length) return 0;
  const body = webhookBody(event.type, event.occurredAt, event.data);
  const { count } = await tx.webhookDelivery.createMany({
    data: endpoints.map((endpoint) => ({
      id: randomUUID(),
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      body,
    })),
    skipDuplicates: true,
  });
  return count;
}

export const endpointView = (endpoint: WebhookEndpoint): EndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events as EndpointView['events'],
  description: endpoint.description,
  createdAt: endpoint.createdAt.toISOString(),
  secretHint: secretHint(endpoint.secret),
});

export const deliveryView = (delivery: WebhookDelivery): DeliveryView => ({
  id: delivery.id,
  endpointId: delivery.endpointId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  state: delivery.state as DeliveryView['state'],
  attempts: delivery.attempts,
  lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  responseStatus: delivery.responseStatus,
  responseBody: delivery.responseBody,
  error: delivery.error,
  createdAt: delivery.createdAt.toISOString(),
});
