import type {
  AuditEntry,
  EventPayload,
  Vendor,
  VendorInvitation,
  VendorRole,
  VendorSummary,
  VerificationMethod,
} from '@app/contracts';
import { companyKey } from '@app/domain';
import type { z } from 'zod';
import type {
  Vendor as VendorRow,
  VendorAuditEntry,
  VendorInvitation as InvitationRow,
} from './generated/prisma/client.ts';
import { displayName, type VendorRecord } from './vendor-repository.ts';

/** How workspaces look in answers and events: pure mappings from rows. */

/** Who is looking: members see their role; owners and administrators also see pending invitations. */
export interface Viewer {
  role: VendorRole | null;
  isAdmin: boolean;
}

const method = (value: string | null) => (value as VerificationMethod | null) ?? null;

export function invitationView(row: InvitationRow, vendorName: string, names: Map<string, string>): VendorInvitation {
  return {
    id: row.id,
    vendorId: row.vendorId,
    vendorName,
    email: row.email,
    role: row.role as VendorRole,
    invitedBy: names.get(row.invitedBy) ?? '',
    createdAt: row.createdAt.toISOString(),
  };
}

export function vendorView(
  record: VendorRecord,
  viewer: Viewer,
  inviters: Map<string, string>,
  domainRevoked: boolean,
): Vendor {
  const seesInvitations = viewer.role === 'owner' || viewer.isAdmin;
  return {
    id: record.id,
    name: record.name,
    domain: record.domain,
    leadInbox: record.leadInbox,
    verified: record.verifiedAt !== null,
    verification: method(record.verificationMethod),
    verifiedAt: record.verifiedAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    domainRevoked,
    role: viewer.role,
    members: record.members.map((m) => ({
      userId: m.userId,
      email: m.user.email,
      name: displayName(m.user),
      role: m.role as VendorRole,
      joinedAt: m.joinedAt.toISOString(),
    })),
    invitations: seesInvitations ? record.invitations.map((i) => invitationView(i, record.name, inviters)) : [],
    hasLeadCriteria: record.leadCriteria !== null,
    hasBounties: record.bounties !== null,
    createdAt: record.createdAt.toISOString(),
  };
}

/** `vendor.saved`: the whole state consumers keep a copy of. */
export function vendorSnapshot(record: VendorRecord): EventPayload<'vendor.saved'> {
  return {
    vendorId: record.id,
    version: record.version,
    name: record.name,
    domain: record.domain,
    companyKey: companyKey(record.name),
    leadInbox: record.leadInbox,
    verified: record.verifiedAt !== null,
    members: record.members.map((m) => ({
      userId: m.userId,
      email: m.user.email,
      name: displayName(m.user),
      role: m.role as VendorRole,
    })),
  };
}

/** A line of the administrators' directory. */
export function summaryView(
  row: Pick<VendorRow, 'id' | 'name' | 'domain' | 'verifiedAt' | 'verificationMethod' | 'revokedAt' | 'createdAt'> & {
    _count: { members: number };
  },
): z.infer<typeof VendorSummary> {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    verified: row.verifiedAt !== null,
    verification: method(row.verificationMethod),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    members: row._count.members,
    createdAt: row.createdAt.toISOString(),
  };
}

export const auditView = (row: VendorAuditEntry): AuditEntry => ({
  id: String(row.id),
  vendorId: row.vendorId,
  actor: row.actor,
  action: row.action,
  note: row.note,
  at: row.at.toISOString(),
});
