import type { VendorRole } from '@app/contracts';
import { fail, type Identity } from '@app/kit';
import type { Tx } from './db.ts';
import type { Vendor } from './generated/prisma/client.ts';
import { findVendor, isUniqueViolation, lockVendor, roleOf, workspaceIdsOf } from './vendor-repository.ts';

/** Who may do what in a workspace: every use case opens the workspace through here first. */

export interface OpenedWorkspace {
  vendor: Vendor;
  /** The caller's role; null for an administrator who is not a member. */
  role: VendorRole | null;
}

/**
 * The workspace for a caller: 404 VENDOR_NOT_FOUND when there is none, 403 NOT_A_MEMBER for anyone who is not
 * a member (administrators pass where `admins` says so). With `lock`, the row stays locked until the
 * transaction ends, so the checks still hold when the change is written.
 */
export async function openWorkspace(
  tx: Tx,
  identity: Identity,
  vendorId: string,
  options: { lock?: boolean; admins?: boolean } = {},
): Promise<OpenedWorkspace> {
  const exists = options.lock ? await lockVendor(tx, vendorId) : true;
  const vendor = exists ? await findVendor(tx, vendorId) : null;
  if (!vendor) fail('VENDOR_NOT_FOUND');
  const role = await roleOf(tx, vendor.id, identity.userId);
  if (!role && !(options.admins && identity.isAdmin)) fail('NOT_A_MEMBER');
  return { vendor, role };
}

/**
 * The workspace the spec's /api/lead-criteria and /api/bounties mean: `?vendorId=`, or the caller's only
 * workspace (NO_WORKSPACE without one, CHOOSE_WORKSPACE with several).
 */
export async function workspaceFor(
  tx: Tx,
  identity: Identity,
  vendorId: string | undefined,
  options: { lock?: boolean; admins?: boolean } = {},
): Promise<OpenedWorkspace> {
  if (vendorId !== undefined) return openWorkspace(tx, identity, vendorId, options);
  const ids = await workspaceIdsOf(tx, identity.userId);
  if (ids.length === 0) fail('NO_WORKSPACE');
  if (ids.length > 1) fail('CHOOSE_WORKSPACE');
  return openWorkspace(tx, identity, ids[0]!, options);
}

/** Owners (and administrators) manage the workspace itself: members, invitations, name and website. */
export function requireOwner(workspace: OpenedWorkspace, identity: Identity): void {
  if (workspace.role !== 'owner' && !identity.isAdmin) fail('NOT_AN_OWNER');
}

/** Only a verified workspace's data reaches anyone, so only a verified workspace changes it. */
export function requireVerified(workspace: OpenedWorkspace): void {
  if (!workspace.vendor.verifiedAt) fail('WORKSPACE_NOT_VERIFIED');
}

/** The addresses the caller proves by acting: their own, when verified and they are a member. */
export const provenBy = (identity: Identity, role: VendorRole | null): string[] =>
  role && identity.emailVerified ? [identity.email.toLowerCase()] : [];

/** A concurrent verification of the same domain lost the race to the unique index: DOMAIN_TAKEN. */
export async function guardDomain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) fail('DOMAIN_TAKEN');
    throw error;
  }
}
