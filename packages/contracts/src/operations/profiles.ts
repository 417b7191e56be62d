import { z } from 'zod';
import { idText, MessageResponse } from '../common.ts';
import { DemoRequest } from '../demo.ts';
import { CreatedWebhook, CreateWebhookRequest, WebhookDelivery, WebhookEndpoint } from '../money.ts';
import { defineOperation } from '../operation.ts';
import { LeadCriteria, SaveBountiesRequest, SavedBounties, SavedLeadCriteria } from '../profiles.ts';
import {
  AdminCreateVendorRequest,
  ApproveVendorRequest,
  AuditEntry,
  CreateVendorRequest,
  InviteMemberRequest,
  MyVendors,
  RevokeVendorRequest,
  UpdateVendorRequest,
  Vendor,
  VendorDirectoryQuery,
  VendorInvitation,
  VendorSummary,
} from '../vendors.ts';

/** A vendor id in a path; an unknown one (or not a uuid) is VENDOR_NOT_FOUND. */
export const VendorIdParams = z.object({ vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found') });
export const InvitationParams = z.object({
  vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found'),
  invitationId: idText('Invitation', 64, 'Invitation not found'),
});
export const MemberParams = z.object({
  vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found'),
  userId: idText('Member', 64, 'Member not found'),
});
/** Which workspace the spec's /api/lead-criteria and /api/bounties mean; optional when the user has one. */
export const WorkspaceQuery = z.strictObject({
  vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found').optional(),
});

export const profileOperations = {
  getLeadCriteria: defineOperation({
    method: 'GET',
    path: '/api/lead-criteria',
    service: 'profiles',
    access: 'user',
    summary: "The Ideal Customer Profile of the user's vendor workspace (?vendorId= when they have several)",
    query: WorkspaceQuery,
    response: { status: 200, description: 'Saved profile', schema: SavedLeadCriteria },
    errors: ['LEAD_CRITERIA_NOT_FOUND', 'NO_WORKSPACE', 'CHOOSE_WORKSPACE', 'VENDOR_NOT_FOUND', 'NOT_A_MEMBER'],
  }),
  saveLeadCriteria: defineOperation({
    method: 'POST',
    path: '/api/lead-criteria',
    service: 'profiles',
    access: 'verified',
    summary: 'Save the Ideal Customer Profile (the eleven fields) of a verified workspace the user is a member of',
    query: WorkspaceQuery,
    body: LeadCriteria,
    response: { status: 200, description: 'Saved', schema: SavedLeadCriteria },
    errors: [
      'EMPTY_CRITERIA',
      'NO_WORKSPACE',
      'CHOOSE_WORKSPACE',
      'VENDOR_NOT_FOUND',
      'NOT_A_MEMBER',
      'WORKSPACE_NOT_VERIFIED',
    ],
  }),
  getBounties: defineOperation({
    method: 'GET',
    path: '/api/bounties',
    service: 'profiles',
    access: 'user',
    summary: "The bounties of the user's vendor workspace (?vendorId= when they have several)",
    query: WorkspaceQuery,
    response: { status: 200, description: 'Saved bounties', schema: SavedBounties },
    errors: ['BOUNTIES_NOT_FOUND', 'NO_WORKSPACE', 'CHOOSE_WORKSPACE', 'VENDOR_NOT_FOUND', 'NOT_A_MEMBER'],
  }),
  saveBounties: defineOperation({
    method: 'POST',
    path: '/api/bounties',
    service: 'profiles',
    access: 'verified',
    summary: 'Save the bounties per milestone of a verified workspace the user is a member of',
    query: WorkspaceQuery,
    body: SaveBountiesRequest,
    response: { status: 200, description: 'Saved', schema: SavedBounties },
    errors: ['NO_WORKSPACE', 'CHOOSE_WORKSPACE', 'VENDOR_NOT_FOUND', 'NOT_A_MEMBER', 'WORKSPACE_NOT_VERIFIED'],
  }),
  requestDemo: defineOperation({
    method: 'POST',
    path: '/api/demo-request',
    service: 'profiles',
    access: 'public',
    rateLimit: 'credentials',
    summary: 'Ask for a demo; the sales team is told by email',
    body: DemoRequest,
    response: { status: 201, description: 'Stored', schema: MessageResponse },
  }),
} as const;

const membership = ['VENDOR_NOT_FOUND', 'NOT_A_MEMBER'] as const;

export const vendorOperations = {
  listMyVendors: defineOperation({
    method: 'GET',
    path: '/api/vendors/mine',
    service: 'profiles',
    access: 'user',
    summary: "The caller's vendor workspaces and the invitations waiting for their email address",
    response: { status: 200, description: 'Workspaces and invitations', schema: MyVendors },
  }),
  createVendor: defineOperation({
    method: 'POST',
    path: '/api/vendors',
    service: 'profiles',
    access: 'verified',
    summary:
      'Create a vendor workspace; the caller becomes its owner. Verified at once when their email is on the website domain',
    body: CreateVendorRequest,
    response: { status: 201, description: 'Created', schema: Vendor },
    errors: ['WEBMAIL_DOMAIN', 'DOMAIN_TAKEN'],
  }),
  getVendor: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}',
    service: 'profiles',
    access: 'user',
    summary: 'A workspace (members and administrators)',
    params: VendorIdParams,
    response: { status: 200, description: 'The workspace', schema: Vendor },
    errors: membership,
  }),
  updateVendor: defineOperation({
    method: 'PATCH',
    path: '/api/vendors/{vendorId}',
    service: 'profiles',
    access: 'verified',
    summary: 'Change the name and website (owners; website only until verified) or the lead inbox (members, verified)',
    params: VendorIdParams,
    body: UpdateVendorRequest,
    response: { status: 200, description: 'Updated', schema: Vendor },
    errors: [
      ...membership,
      'NOT_AN_OWNER',
      'WORKSPACE_NOT_VERIFIED',
      'WEBSITE_LOCKED',
      'WEBMAIL_DOMAIN',
      'DOMAIN_TAKEN',
      'NOTHING_TO_UPDATE',
    ],
  }),
  checkVendorVerification: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/verification',
    service: 'profiles',
    access: 'verified',
    summary: "Verify the workspace by a member's verified email on its website domain",
    params: VendorIdParams,
    response: { status: 200, description: 'The workspace, verified or not', schema: Vendor },
    errors: [...membership, 'DOMAIN_TAKEN'],
  }),
  inviteMember: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/invitations',
    service: 'profiles',
    access: 'verified',
    summary: 'Invite someone by email (owners); they accept by signing in with that address',
    params: VendorIdParams,
    body: InviteMemberRequest,
    response: { status: 201, description: 'Invited', schema: VendorInvitation },
    errors: [...membership, 'NOT_AN_OWNER', 'ALREADY_A_MEMBER'],
  }),
  revokeInvitation: defineOperation({
    method: 'DELETE',
    path: '/api/vendors/{vendorId}/invitations/{invitationId}',
    service: 'profiles',
    access: 'verified',
    summary: 'Withdraw a pending invitation (owners)',
    params: InvitationParams,
    response: { status: 200, description: 'Withdrawn', schema: Vendor },
    errors: [...membership, 'NOT_AN_OWNER', 'INVITATION_NOT_FOUND', 'INVITATION_ALREADY_ACCEPTED'],
  }),
  acceptInvitation: defineOperation({
    method: 'POST',
    path: '/api/vendor-invitations/{invitationId}/accept',
    service: 'profiles',
    access: 'verified',
    summary: 'Join a workspace: only the signed-in user whose verified email the invitation was sent to',
    params: z.object({ invitationId: idText('Invitation', 64, 'Invitation not found') }),
    response: { status: 200, description: 'The workspace joined', schema: Vendor },
    errors: ['INVITATION_NOT_FOUND', 'INVITATION_NOT_YOURS', 'INVITATION_ALREADY_ACCEPTED', 'ALREADY_A_MEMBER'],
  }),
  removeMember: defineOperation({
    method: 'DELETE',
    path: '/api/vendors/{vendorId}/members/{userId}',
    service: 'profiles',
    access: 'verified',
    summary: 'Remove a member (owners), or leave the workspace (yourself)',
    params: MemberParams,
    response: { status: 200, description: 'The workspace after the change', schema: Vendor },
    errors: [...membership, 'NOT_AN_OWNER', 'MEMBER_NOT_FOUND', 'LAST_OWNER'],
  }),
  getVendorAudit: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}/audit',
    service: 'profiles',
    access: 'user',
    summary: 'What happened to the workspace: verification, approvals, members (owners and administrators)',
    params: VendorIdParams,
    response: { status: 200, description: 'Audit entries, newest first', schema: AuditEntry.array() },
    errors: [...membership, 'NOT_AN_OWNER'],
  }),
  listVendors: defineOperation({
    method: 'GET',
    path: '/api/admin/vendors',
    service: 'profiles',
    access: 'admin',
    summary: 'Every vendor workspace, to approve them and link programs (administrators only)',
    query: VendorDirectoryQuery,
    response: { status: 200, description: 'Workspaces', schema: VendorSummary.array() },
  }),
  adminCreateVendor: defineOperation({
    method: 'POST',
    path: '/api/admin/vendors',
    service: 'profiles',
    access: 'admin',
    summary: 'Create a workspace for a vendor, e.g. for its program, approved or not (administrators only)',
    body: AdminCreateVendorRequest,
    response: { status: 201, description: 'Created', schema: Vendor },
    errors: ['WEBMAIL_DOMAIN', 'DOMAIN_TAKEN'],
  }),
  approveVendor: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/approve',
    service: 'profiles',
    access: 'admin',
    summary: 'Approve a workspace on the vendor’s behalf, with a note kept in its audit log (administrators only)',
    params: VendorIdParams,
    body: ApproveVendorRequest,
    response: { status: 200, description: 'Approved', schema: Vendor },
    errors: ['VENDOR_NOT_FOUND', 'DOMAIN_TAKEN'],
  }),
  revokeVendor: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/revoke',
    service: 'profiles',
    access: 'admin',
    summary:
      'Revoke a workspace’s verification, with a note kept in its audit log: it receives no new leads, its lead criteria and bounties stop applying, and while it stays revoked only an administrator verifies a workspace of its domain (administrators only)',
    params: VendorIdParams,
    body: RevokeVendorRequest,
    response: { status: 200, description: 'Revoked', schema: Vendor },
    errors: ['VENDOR_NOT_FOUND'],
  }),
} as const;

export const WebhookParams = z.object({
  vendorId: idText('Vendor workspace', 64, 'Vendor workspace not found'),
  endpointId: idText('Webhook endpoint', 64, 'Webhook endpoint not found'),
});
const workspace = ['VENDOR_NOT_FOUND', 'NOT_A_MEMBER', 'WORKSPACE_NOT_VERIFIED'] as const;

/**
 * Outbound webhooks for a vendor's CRM (owners of a verified workspace manage them; members see them).
 * Deliveries are signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature:
 * v1,base64 HMAC-SHA256 of "id.timestamp.body") and retried with backoff for about a day.
 */
export const webhookOperations = {
  listWebhooks: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}/webhooks',
    service: 'profiles',
    access: 'verified',
    summary: "The workspace's webhook endpoints",
    params: VendorIdParams,
    response: { status: 200, description: 'Endpoints', schema: WebhookEndpoint.array() },
    errors: workspace,
  }),
  createWebhook: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/webhooks',
    service: 'profiles',
    access: 'verified',
    summary: 'Register an HTTPS endpoint (owners); the signing secret is answered once',
    params: VendorIdParams,
    body: CreateWebhookRequest,
    response: { status: 201, description: 'The endpoint and its secret', schema: CreatedWebhook },
    errors: [...workspace, 'NOT_AN_OWNER', 'WEBHOOK_URL_PRIVATE', 'WEBHOOK_URL_UNRESOLVABLE', 'WEBHOOK_LIMIT'],
  }),
  deleteWebhook: defineOperation({
    method: 'DELETE',
    path: '/api/vendors/{vendorId}/webhooks/{endpointId}',
    service: 'profiles',
    access: 'verified',
    summary: 'Remove an endpoint (owners); its pending deliveries stop',
    params: WebhookParams,
    response: { status: 200, description: 'The endpoints left', schema: WebhookEndpoint.array() },
    errors: [...workspace, 'NOT_AN_OWNER', 'WEBHOOK_NOT_FOUND'],
  }),
  sendTestWebhook: defineOperation({
    method: 'POST',
    path: '/api/vendors/{vendorId}/webhooks/{endpointId}/test',
    service: 'profiles',
    access: 'verified',
    summary: 'Send a signed test event ("webhook.test") to the endpoint',
    params: WebhookParams,
    response: { status: 202, description: 'The delivery, queued', schema: WebhookDelivery },
    errors: [...workspace, 'WEBHOOK_NOT_FOUND'],
  }),
  listWebhookDeliveries: defineOperation({
    method: 'GET',
    path: '/api/vendors/{vendorId}/webhooks/{endpointId}/deliveries',
    service: 'profiles',
    access: 'verified',
    summary: "The endpoint's latest 50 deliveries with their responses, newest first",
    params: WebhookParams,
    response: { status: 200, description: 'Deliveries', schema: WebhookDelivery.array() },
    errors: [...workspace, 'WEBHOOK_NOT_FOUND'],
  }),
} as const;
