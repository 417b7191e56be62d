import { fail } from '@app/kit';
import type { KnownVendor } from './repository.ts';

/** Who changes a program: administrators may do anything; anyone else only as a member of its vendor. */
export interface Actor {
  userId: string;
  isAdmin: boolean;
}

/**
 * The rule for a non-administrator and a vendor's programs: the vendor must exist (404 VENDOR_NOT_FOUND),
 * the user must be one of its members (403 NOT_A_MEMBER) and the workspace verified (403
 * WORKSPACE_NOT_VERIFIED): an unverified claim of a company manages nothing of it.
 */
export function assertManagesVendor(vendor: KnownVendor | null, userId: string): KnownVendor {
  if (!vendor) fail('VENDOR_NOT_FOUND');
  if (!vendor.memberIds.includes(userId)) fail('NOT_A_MEMBER');
  if (!vendor.verified) fail('WORKSPACE_NOT_VERIFIED');
  return vendor;
}
