import { randomUUID } from 'node:crypto';
import type { CreatedWebhook, CreateWebhookRequest, WebhookDelivery, WebhookEndpoint } from '@app/contracts';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import { addAudit } from './vendor-repository.ts';
import { checkWebhookUrl, type Resolver } from './webhook-address.ts';
import {
  deliveriesOf,
  deliveryView,
  endpointsOf,
  endpointView,
  findEndpoint,
  MAX_WEBHOOKS,
  webhookBody,
} from './webhook-repository.ts';
import { newWebhookSecret } from './webhook-sender.ts';
import { openWorkspace, requireVerified, type OpenedWorkspace } from './workspace-access.ts';

type Created = z.output<typeof CreatedWebhook>;

export const TEST_EVENT = 'webhook.test';

/**
 * Members of a verified workspace see its endpoints and deliveries and send test events; its owners (only
 * them: administrators do not handle a vendor's secrets) register and delete endpoints. Anyone else gets
 * VENDOR_NOT_FOUND or NOT_A_MEMBER before anything about the endpoints is read.
 */
async function openVerified(db: Tx, identity: Identity, vendorId: string, lock = false): Promise<OpenedWorkspace> {
  const workspace = await openWorkspace(db, identity, vendorId, { lock });
  requireVerified(workspace);
  return workspace;
}

const requireOwnerRole = (workspace: OpenedWorkspace) => {
  if (workspace.role !== 'owner') fail('NOT_AN_OWNER');
};

export function webhookUseCases(deps: {
  transaction: TransactionRunner<Tx>;
  db: Tx;
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Wakes the delivery worker after new deliveries were committed. */
  kick: () => void;
}) {
  const { transaction, db } = deps;

  return {
    async list(identity: Identity, vendorId: string): Promise<WebhookEndpoint[]> {
      await openVerified(db, identity, vendorId);
      return (await endpointsOf(db, vendorId)).map(endpointView);
    },

    /**
     * Owners register an HTTPS URL whose host resolves to public addresses only (all of them), at most
     * MAX_WEBHOOKS per workspace (counted under the workspace's lock). The secret is answered only here.
     */
    async create(identity: Identity, vendorId: string, input: z.output<typeof CreateWebhookRequest>): Promise<Created> {
      // Rights first (nothing is resolved for someone who may not register), then the address, outside any
      // transaction, then the write under the lock.
      requireOwnerRole(await openVerified(db, identity, vendorId));
      const check = await checkWebhookUrl(input.url, {
        allowPrivate: deps.allowPrivate,
        ...(deps.resolve ? { resolve: deps.resolve } : {}),
      });
      if (!check.ok)
        fail(check.reason === 'private' ? 'WEBHOOK_URL_PRIVATE' : 'WEBHOOK_URL_UNRESOLVABLE', undefined, {
          field: 'url',
        });
      return transaction(async (tx) => {
        requireOwnerRole(await openVerified(tx, identity, vendorId, true));
        if ((await tx.webhookEndpoint.count({ where: { vendorId } })) >= MAX_WEBHOOKS) fail('WEBHOOK_LIMIT');
        const secret = newWebhookSecret();
        const endpoint = await tx.webhookEndpoint.create({
          data: {
            vendorId,
            url: input.url,
            events: input.events,
            description: input.description,
            secret,
            createdBy: identity.userId,
          },
        });
        await addAudit(tx, vendorId, identity.email, 'webhook_added', input.url);
        return { endpoint: endpointView(endpoint), secret };
      });
    },

    /** Owners remove an endpoint; its deliveries go with it, so nothing pending is sent any more. */
    async remove(identity: Identity, vendorId: string, endpointId: string): Promise<WebhookEndpoint[]> {
      return transaction(async (tx) => {
        requireOwnerRole(await openVerified(tx, identity, vendorId, true));
        const endpoint = await findEndpoint(tx, vendorId, endpointId);
        if (!endpoint) fail('WEBHOOK_NOT_FOUND');
        await tx.webhookEndpoint.delete({ where: { id: endpoint.id } });
        await addAudit(tx, vendorId, identity.email, 'webhook_removed', endpoint.url);
        return (await endpointsOf(tx, vendorId)).map(endpointView);
      });
    },

    /** A signed "webhook.test" event to one endpoint, queued like any other. */
    async sendTest(identity: Identity, vendorId: string, endpointId: string): Promise<WebhookDelivery> {
      const delivery = await transaction(async (tx) => {
        const { vendor } = await openVerified(tx, identity, vendorId);
        const endpoint = await findEndpoint(tx, vendorId, endpointId);
        if (!endpoint) fail('WEBHOOK_NOT_FOUND');
        const eventId = randomUUID();
        const data = { vendorId, vendorName: vendor.name, endpointId, message: 'A test event from Referral Hub' };
        return tx.webhookDelivery.create({
          data: {
            endpointId,
            eventId,
            eventType: TEST_EVENT,
            body: webhookBody(TEST_EVENT, new Date().toISOString(), data),
          },
        });
      });
      deps.kick();
      return deliveryView(delivery);
    },

    /** The endpoint's latest deliveries, newest first. */
    async deliveries(identity: Identity, vendorId: string, endpointId: string): Promise<WebhookDelivery[]> {
      await openVerified(db, identity, vendorId);
      const endpoint = await findEndpoint(db, vendorId, endpointId);
      if (!endpoint) fail('WEBHOOK_NOT_FOUND');
      return (await deliveriesOf(db, endpoint.id)).map(deliveryView);
    },
  };
}

export type WebhookUseCases = ReturnType<typeof webhookUseCases>;
