import type {
  AdminCreateVendorRequest,
  AuditEntry,
  CreateVendorRequest,
  MyVendors,
  UpdateVendorRequest,
  Vendor,
  VendorDirectoryQuery,
  VendorSummary,
} from '@app/contracts';
import { companyKey, isPublicSuffixLike, isWebmailDomain } from '@app/domain';
import { fail, type Identity, type TransactionRunner } from '@app/kit';
import type { z } from 'zod';
import type { Tx } from './db.ts';
import { rememberIdentity } from './users.ts';
import { announceSavedData, announceVendor } from './vendor-events.ts';
import {
  addAudit,
  auditOf,
  directory,
  pendingInvitationsFor,
  revokedHolderOf,
  userNames,
  vendorRecord,
  vendorRecordsOf,
  verifiedHolderOf,
  type VendorRecord,
} from './vendor-repository.ts';
import { auditView, invitationView, summaryView, vendorSnapshot, vendorView, type Viewer } from './vendor-view.ts';
import { approveByAdmin, revokeByAdmin, verifyByDomain } from './verification.ts';
import { guardDomain, openWorkspace, provenBy, requireOwner } from './workspace-access.ts';

type Out<T extends z.ZodType> = z.output<T>;

/** The workspace as a viewer sees it, read in `db` (inside the transaction that changed it, if any). */
export async function showVendor(db: Tx, vendorId: string, viewer: Viewer): Promise<Vendor> {
  const record = await vendorRecord(db, vendorId);
  const inviters = await userNames(
    db,
    record.invitations.map((i) => i.invitedBy),
  );
  return vendorView(record, viewer, inviters, await domainRevoked(db, record));
}

/** Whether only an administrator can verify the workspace because another one of its domain stays revoked. */
async function domainRevoked(db: Tx, record: Pick<VendorRecord, 'verifiedAt' | 'revokedAt' | 'domain'>) {
  return !record.verifiedAt && !record.revokedAt && (await revokedHolderOf(db, record.domain)) !== null;
}

/**
 * A website that names no company: webmail (WEBMAIL_DOMAIN) or a registry's suffix such as "co.uk" (anyone
 * with an address under it would prove it, and every product under it would route to the workspace).
 */
function refuseOpenDomain(domain: string): void {
  if (isWebmailDomain(domain)) fail('WEBMAIL_DOMAIN');
  if (isPublicSuffixLike(domain))
    fail('VALIDATION_FAILED', 'Please enter a valid website, e.g. acme.com', { field: 'website' });
}

/** A website can be neither an open domain nor the domain of another verified workspace. */
async function checkWebsite(db: Tx, domain: string, vendorId?: string): Promise<void> {
  refuseOpenDomain(domain);
  if (await verifiedHolderOf(db, domain, vendorId)) fail('DOMAIN_TAKEN');
}

/** Use cases of the workspaces themselves: each owns its transaction and the events it announces. */
export function workspaceUseCases(transaction: TransactionRunner<Tx>, db: Tx) {
  return {
    /** The caller's workspaces, and the invitations waiting for their address once it is verified. */
    async mine(identity: Identity): Promise<MyVendors> {
      const records = await vendorRecordsOf(db, identity.userId);
      const invitations = identity.emailVerified ? await pendingInvitationsFor(db, identity.email.toLowerCase()) : [];
      const names = await userNames(db, [
        ...records.flatMap((r) => r.invitations.map((i) => i.invitedBy)),
        ...invitations.map((i) => i.invitedBy),
      ]);
      const vendors: Vendor[] = [];
      for (const record of records) {
        const role = record.members.find((m) => m.userId === identity.userId)?.role ?? null;
        const viewer = { role: role as Viewer['role'], isAdmin: identity.isAdmin };
        vendors.push(vendorView(record, viewer, names, await domainRevoked(db, record)));
      }
      return {
        vendors,
        invitations: invitations.map((i) => invitationView(i, i.vendor.name, names)),
      };
    },

    async get(identity: Identity, vendorId: string): Promise<Vendor> {
      const { role } = await openWorkspace(db, identity, vendorId, { admins: true });
      return showVendor(db, vendorId, { role, isAdmin: identity.isAdmin });
    },

    /** The caller becomes the owner; verified at once when their own verified address is on the domain. */
    async create(identity: Identity, input: Out<typeof CreateVendorRequest>): Promise<Vendor> {
      refuseOpenDomain(input.website);
      return guardDomain(() =>
        transaction(async (tx, emit) => {
          await checkWebsite(tx, input.website);
          await rememberIdentity(tx, identity);
          const vendor = await tx.vendor.create({
            data: {
              name: input.name,
              domain: input.website,
              companyKey: companyKey(input.name),
              leadInbox: input.leadInbox ?? identity.email.toLowerCase(),
            },
          });
          await tx.vendorMember.create({ data: { vendorId: vendor.id, userId: identity.userId, role: 'owner' } });
          await addAudit(tx, vendor.id, identity.email, 'created', `${input.name} (${input.website})`);
          // Another workspace of the domain verified since checkWebsite (a concurrent claim that committed first):
          // the same DOMAIN_TAKEN as a claim made after it, not a workspace left unverified on a taken domain.
          const outcome = await verifyByDomain(tx, vendor.id, provenBy(identity, 'owner'));
          if (outcome === 'domain-taken') fail('DOMAIN_TAKEN');
          emit('vendor.saved', vendorSnapshot(await vendorRecord(tx, vendor.id)));
          return showVendor(tx, vendor.id, { role: 'owner', isAdmin: identity.isAdmin });
        }),
      );
    },

    /**
     * Name and website: owners (website only until verified) and administrators. Lead inbox: members of a
     * verified workspace and administrators. Values equal to the stored ones are no change and need no right.
     */
    async update(identity: Identity, vendorId: string, input: Out<typeof UpdateVendorRequest>): Promise<Vendor> {
      return guardDomain(() =>
        transaction(async (tx, emit) => {
          const workspace = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
          if (Object.values(input).every((value) => value === undefined)) fail('NOTHING_TO_UPDATE');
          const { vendor, role } = workspace;
          const verified = vendor.verifiedAt !== null;
          const name = input.name !== undefined && input.name !== vendor.name ? input.name : undefined;
          const website = input.website !== undefined && input.website !== vendor.domain ? input.website : undefined;
          const leadInbox =
            input.leadInbox !== undefined && input.leadInbox !== vendor.leadInbox ? input.leadInbox : undefined;
          if (name !== undefined || website !== undefined) requireOwner(workspace, identity);
          if (website !== undefined && verified && !identity.isAdmin) fail('WEBSITE_LOCKED');
          if (leadInbox !== undefined && !verified && !identity.isAdmin) fail('WORKSPACE_NOT_VERIFIED');
          if (website !== undefined) await checkWebsite(tx, website, vendorId);
          const viewer = { role, isAdmin: identity.isAdmin };
          if (name === undefined && website === undefined && leadInbox === undefined)
            return showVendor(tx, vendorId, viewer);

          if (role) await rememberIdentity(tx, identity);
          await tx.vendor.update({
            where: { id: vendorId },
            data: {
              ...(name !== undefined ? { name } : {}),
              // A verified workspace keeps its claim on the new domain (only administrators get here).
              ...(website !== undefined ? { domain: website, verifiedDomain: verified ? website : null } : {}),
              ...(leadInbox !== undefined ? { leadInbox } : {}),
            },
          });
          if (name !== undefined) await addAudit(tx, vendorId, identity.email, 'renamed', `${vendor.name} → ${name}`);
          if (website !== undefined)
            await addAudit(
              tx,
              vendorId,
              identity.email,
              'website_changed',
              `${vendor.domain || '(none)'} → ${website}`,
            );
          if (leadInbox !== undefined)
            await addAudit(tx, vendorId, identity.email, 'lead_inbox_changed', `${vendor.leadInbox} → ${leadInbox}`);
          const outcome =
            website !== undefined && !verified
              ? await verifyByDomain(tx, vendorId, provenBy(identity, role))
              : 'unproven';
          await announceVendor(tx, emit, vendorId);
          if (outcome === 'verified') await announceSavedData(tx, emit, vendorId);
          return showVendor(tx, vendorId, viewer);
        }),
      );
    },

    /** On demand: verified when a member's verified address is on the domain; DOMAIN_TAKEN if another is. */
    async checkVerification(identity: Identity, vendorId: string): Promise<Vendor> {
      return guardDomain(() =>
        transaction(async (tx, emit) => {
          const { role } = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
          if (role) await rememberIdentity(tx, identity);
          const outcome = await verifyByDomain(tx, vendorId, provenBy(identity, role));
          if (outcome === 'domain-taken') fail('DOMAIN_TAKEN');
          if (outcome === 'verified') {
            await announceVendor(tx, emit, vendorId);
            await announceSavedData(tx, emit, vendorId);
          }
          return showVendor(tx, vendorId, { role, isAdmin: identity.isAdmin });
        }),
      );
    },

    /** Owners and administrators. */
    async audit(identity: Identity, vendorId: string): Promise<AuditEntry[]> {
      const workspace = await openWorkspace(db, identity, vendorId, { admins: true });
      requireOwner(workspace, identity);
      return (await auditOf(db, vendorId)).map(auditView);
    },

    async directory(query: Out<typeof VendorDirectoryQuery>): Promise<Array<Out<typeof VendorSummary>>> {
      return (await directory(db, query)).map(summaryView);
    },

    /** An administrator creates a workspace (e.g. for a program's vendor), approved at once or not. */
    async adminCreate(identity: Identity, input: Out<typeof AdminCreateVendorRequest>): Promise<Vendor> {
      refuseOpenDomain(input.website);
      // An approval always says why the platform vouches for the vendor (as POST /approve requires).
      if (input.approve && !input.note)
        fail('VALIDATION_FAILED', 'Please say why you approve this vendor', { field: 'note' });
      return guardDomain(() =>
        transaction(async (tx, emit) => {
          await checkWebsite(tx, input.website);
          const vendor = await tx.vendor.create({
            data: {
              name: input.name,
              domain: input.website,
              companyKey: companyKey(input.name),
              leadInbox: input.leadInbox ?? '',
            },
          });
          await addAudit(tx, vendor.id, identity.email, 'created', `${input.name} (${input.website})`);
          if (input.approve) await approveByAdmin(tx, vendor.id, identity.email, input.note);
          emit('vendor.saved', vendorSnapshot(await vendorRecord(tx, vendor.id)));
          return showVendor(tx, vendor.id, { role: null, isAdmin: true });
        }),
      );
    },

    /** Administrators vouch for a workspace, with the reason in its audit log. Approving twice changes nothing. */
    async approve(identity: Identity, vendorId: string, note: string): Promise<Vendor> {
      return guardDomain(() =>
        transaction(async (tx, emit) => {
          const { vendor, role } = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
          const viewer = { role, isAdmin: true };
          if (vendor.verifiedAt) return showVendor(tx, vendorId, viewer);
          if (await verifiedHolderOf(tx, vendor.domain, vendorId)) fail('DOMAIN_TAKEN');
          await approveByAdmin(tx, vendorId, identity.email, note);
          await announceVendor(tx, emit, vendorId);
          await announceSavedData(tx, emit, vendorId);
          return showVendor(tx, vendorId, viewer);
        }),
      );
    },

    /**
     * An administrator revokes a verified workspace's verification (see revokeByAdmin); `vendor.saved` tells the
     * consumers, which stop routing to it and applying its criteria and bounties. An unverified one is answered
     * as it is.
     */
    async revoke(identity: Identity, vendorId: string, note: string): Promise<Vendor> {
      return transaction(async (tx, emit) => {
        const { vendor, role } = await openWorkspace(tx, identity, vendorId, { lock: true, admins: true });
        const viewer = { role, isAdmin: true };
        if (!vendor.verifiedAt) return showVendor(tx, vendorId, viewer);
        await revokeByAdmin(tx, vendorId, identity.email, note);
        await announceVendor(tx, emit, vendorId);
        return showVendor(tx, vendorId, viewer);
      });
    },
  };
}

export type WorkspaceUseCases = ReturnType<typeof workspaceUseCases>;
