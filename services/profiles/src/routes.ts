import type { HandlersOf } from '@app/kit';
import type { MembershipUseCases } from './membership.ts';
import type { ProfileUseCases } from './profiles.ts';
import type { WebhookUseCases } from './webhooks.ts';
import type { WorkspaceUseCases } from './workspaces.ts';

export const DEMO_RECEIVED = 'Demo request received';

/**
 * The profiles service's operations (contracts: `profileOperations`, `vendorOperations`, `webhookOperations`):
 * call and reply.
 */
export function profileRoutes(deps: {
  profiles: ProfileUseCases;
  workspaces: WorkspaceUseCases;
  membership: MembershipUseCases;
  webhooks: WebhookUseCases;
}): HandlersOf<'profiles'> {
  const { profiles, workspaces, membership, webhooks } = deps;
  return {
    getLeadCriteria: ({ identity, query }) => profiles.leadCriteria(identity, query.vendorId),
    saveLeadCriteria: ({ identity, query, body }) => profiles.saveLeadCriteria(identity, query.vendorId, body),
    getBounties: ({ identity, query }) => profiles.bounties(identity, query.vendorId),
    saveBounties: ({ identity, query, body }) => profiles.saveBounties(identity, query.vendorId, body),
    requestDemo: async ({ body }) => {
      await profiles.requestDemo(body);
      return { message: DEMO_RECEIVED };
    },

    listMyVendors: ({ identity }) => workspaces.mine(identity),
    createVendor: ({ identity, body }) => workspaces.create(identity, body),
    getVendor: ({ identity, params }) => workspaces.get(identity, params.vendorId),
    updateVendor: ({ identity, params, body }) => workspaces.update(identity, params.vendorId, body),
    checkVendorVerification: ({ identity, params }) => workspaces.checkVerification(identity, params.vendorId),
    getVendorAudit: ({ identity, params }) => workspaces.audit(identity, params.vendorId),
    listVendors: ({ query }) => workspaces.directory(query),
    adminCreateVendor: ({ identity, body }) => workspaces.adminCreate(identity, body),
    approveVendor: ({ identity, params, body }) => workspaces.approve(identity, params.vendorId, body.note),
    revokeVendor: ({ identity, params, body }) => workspaces.revoke(identity, params.vendorId, body.note),

    inviteMember: ({ identity, params, body }) => membership.invite(identity, params.vendorId, body),
    revokeInvitation: ({ identity, params }) => membership.revoke(identity, params.vendorId, params.invitationId),
    acceptInvitation: ({ identity, params }) => membership.accept(identity, params.invitationId),
    removeMember: ({ identity, params }) => membership.remove(identity, params.vendorId, params.userId),

    listWebhooks: ({ identity, params }) => webhooks.list(identity, params.vendorId),
    createWebhook: ({ identity, params, body }) => webhooks.create(identity, params.vendorId, body),
    deleteWebhook: ({ identity, params }) => webhooks.remove(identity, params.vendorId, params.endpointId),
    sendTestWebhook: ({ identity, params }) => webhooks.sendTest(identity, params.vendorId, params.endpointId),
    listWebhookDeliveries: ({ identity, params }) => webhooks.deliveries(identity, params.vendorId, params.endpointId),
  };
}
