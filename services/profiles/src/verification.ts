import { emailOnDomain } from '@app/domain';
import type { Tx } from './db.ts';
import { addAudit, revokedHolderOf, verifiedHolderOf, verifiedMemberEmails } from './vendor-repository.ts';

/** How a verification attempt ended. */
export type VerificationOutcome = 'verified' | 'already-verified' | 'unproven' | 'domain-taken';

/** The platform itself, in the audit log (automatic verification, carried-over data). */
export const PLATFORM_ACTOR = 'Referral Hub';

/**
 * Verifies an unverified workspace when a member has a verified address on its domain or a subdomain (never
 * webmail: `emailOnDomain`), unless another workspace is already verified for that domain, or an administrator
 * revoked the verification of a workspace of that domain (then only an administrator verifies one again: see
 * revokedHolderOf). `alsoProven`: addresses the caller proved by acting (fresher than the copy). Run with the
 * workspace row locked.
 */
export async function verifyByDomain(
  tx: Tx,
  vendorId: string,
  alsoProven: string[] = [],
): Promise<VerificationOutcome> {
  const vendor = await tx.vendor.findUniqueOrThrow({ where: { id: vendorId } });
  if (vendor.verifiedAt) return 'already-verified';
  if (!vendor.domain || vendor.revokedAt || (await revokedHolderOf(tx, vendor.domain))) return 'unproven';
  const emails = [...alsoProven, ...(await verifiedMemberEmails(tx, vendorId))];
  const proof = emails.find((email) => emailOnDomain(email, vendor.domain));
  if (!proof) return 'unproven';
  if (await verifiedHolderOf(tx, vendor.domain, vendorId)) return 'domain-taken';
  await tx.vendor.update({
    where: { id: vendorId },
    data: { verifiedAt: new Date(), verificationMethod: 'domain', verifiedDomain: vendor.domain },
  });
  await addAudit(tx, vendorId, PLATFORM_ACTOR, 'verified', `${proof} is a verified address on ${vendor.domain}`);
  return 'verified';
}

/** An administrator vouches for the workspace; the note says why (kept in the audit log). */
export async function approveByAdmin(tx: Tx, vendorId: string, actor: string, note: string): Promise<void> {
  const vendor = await tx.vendor.findUniqueOrThrow({ where: { id: vendorId } });
  await tx.vendor.update({
    where: { id: vendorId },
    data: {
      verifiedAt: new Date(),
      verificationMethod: 'admin',
      verifiedDomain: vendor.domain || null,
      revokedAt: null,
    },
  });
  await addAudit(tx, vendorId, actor, 'approved', note);
}

/**
 * An administrator withdraws the workspace's verification, however it was verified; the note says why (kept in
 * the audit log). No workspace holds its domain then, and none is verified by it while this one stays revoked.
 */
export async function revokeByAdmin(tx: Tx, vendorId: string, actor: string, note: string): Promise<void> {
  await tx.vendor.update({
    where: { id: vendorId },
    data: { verifiedAt: null, verificationMethod: null, verifiedDomain: null, revokedAt: new Date() },
  });
  await addAudit(tx, vendorId, actor, 'revoked', note);
}
