import { z } from 'zod';
import { emailField, text, urlText } from './common.ts';
import { COMPANY_SIZES } from './options/index.ts';

/**
 * Vendor workspaces (issue 9): a vendor is a party with an id, a name, a website domain, a lead inbox and
 * members. It is verified when a member has a verified email on its domain (never a webmail domain), or
 * when an administrator approves it. Only a verified vendor receives leads and has its ICP and bounties
 * applied; the normalized company name is only a matching hint.
 */

export const VENDOR_ROLES = ['owner', 'member'] as const;
export const VendorRole = z.enum(VENDOR_ROLES, { error: 'Role must be owner or member' });
export type VendorRole = z.infer<typeof VendorRole>;

export const VERIFICATION_METHODS = ['domain', 'admin'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/**
 * A website as typed ("hubspot.com", "https://www.hubspot.com/pricing"): normalized to its host, without
 * `www.`, lower case. Anything that has no plausible host is refused.
 */
export const VendorWebsite = urlText('Website', 300, 'Please enter the company website').transform((value, ctx) => {
  const host = websiteHost(value);
  if (!host) {
    ctx.addIssue({ code: 'custom', message: 'Please enter a valid website, e.g. acme.com' });
    return z.NEVER;
  }
  return host;
});

/** The host of a website or URL as a domain ("https://www.Acme.com/x" -> "acme.com"), or null. */
export function websiteHost(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    const host = url.hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
    // A registrable-looking name: labels of letters, digits and hyphens, at least one dot, a TLD of 2+ letters.
    return /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

const name = text({ label: 'Company name', max: 200, required: 'Company name is required' });

/** POST /api/vendors: a new workspace; the caller becomes its owner. */
export const CreateVendorRequest = z.strictObject({
  name,
  website: VendorWebsite,
  /** Where new leads are emailed; defaults to the creator's email. */
  leadInbox: emailField('Please enter a valid email address').optional(),
});
export type CreateVendorRequest = z.input<typeof CreateVendorRequest>;

/** PATCH /api/vendors/{vendorId}: any subset (website only while unverified, unless an administrator). */
export const UpdateVendorRequest = z
  .strictObject({ name, website: VendorWebsite, leadInbox: emailField('Please enter a valid email address') })
  .partial();
export type UpdateVendorRequest = z.input<typeof UpdateVendorRequest>;

/** POST /api/admin/vendors: an administrator creates a workspace for a vendor (e.g. for its program). */
export const AdminCreateVendorRequest = z.strictObject({
  name,
  website: VendorWebsite,
  leadInbox: emailField('Please enter a valid email address').optional(),
  /** Approve it at once (audited with the note). */
  approve: z.boolean().default(false),
  note: text({ label: 'Note', max: 1000, multiline: true }).default(''),
});
export type AdminCreateVendorRequest = z.input<typeof AdminCreateVendorRequest>;

/** POST /api/vendors/{vendorId}/approve: administrators only, with the reason kept in the audit log. */
export const ApproveVendorRequest = z.strictObject({
  note: text({ label: 'Note', max: 1000, multiline: true, required: 'Please say why you approve this vendor' }),
});

/**
 * POST /api/vendors/{vendorId}/revoke: administrators only, with the reason kept in the audit log. The workspace
 * is no longer verified, and while it stays revoked no workspace of its domain (it, or a new one) is verified by
 * the domain: only an administrator's approval verifies one.
 */
export const RevokeVendorRequest = z.strictObject({
  note: text({ label: 'Note', max: 1000, multiline: true, required: 'Please say why you revoke its verification' }),
});

export const InviteMemberRequest = z.strictObject({
  email: emailField('Please enter a valid email address'),
  role: VendorRole.default('member'),
});
export type InviteMemberRequest = z.input<typeof InviteMemberRequest>;

export const VendorMember = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: VendorRole,
  joinedAt: z.iso.datetime(),
});

export const VendorInvitation = z.object({
  id: z.string(),
  vendorId: z.string(),
  vendorName: z.string(),
  email: z.string(),
  role: VendorRole,
  invitedBy: z.string(),
  createdAt: z.iso.datetime(),
});
export type VendorInvitation = z.infer<typeof VendorInvitation>;

export const Vendor = z.object({
  id: z.string(),
  name: z.string(),
  /** The website's domain, e.g. "hubspot.com". */
  domain: z.string(),
  leadInbox: z.string(),
  verified: z.boolean(),
  verification: z.enum(VERIFICATION_METHODS).nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  /** When an administrator last revoked its verification, while it stays revoked (null once approved again). */
  revokedAt: z.iso.datetime().nullable(),
  /**
   * Not verified, and another workspace of its domain stays revoked: an address at the domain does not verify
   * it, only an administrator's approval does.
   */
  domainRevoked: z.boolean(),
  /** The caller's role, null for an administrator who is not a member. */
  role: VendorRole.nullable(),
  members: z.array(VendorMember),
  /** Pending invitations (owners and administrators see them). */
  invitations: z.array(VendorInvitation),
  hasLeadCriteria: z.boolean(),
  hasBounties: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Vendor = z.infer<typeof Vendor>;

/** GET /api/vendors/mine: the caller's workspaces and the invitations waiting for their address. */
export const MyVendors = z.object({ vendors: z.array(Vendor), invitations: z.array(VendorInvitation) });
export type MyVendors = z.infer<typeof MyVendors>;

export const VendorSummary = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  verified: z.boolean(),
  verification: z.enum(VERIFICATION_METHODS).nullable(),
  revokedAt: z.iso.datetime().nullable(),
  members: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type VendorSummary = z.infer<typeof VendorSummary>;
export const VendorDirectoryQuery = z.strictObject({
  status: z.enum(['all', 'verified', 'unverified'], { error: 'Unknown status' }).default('all'),
  search: text({ label: 'Search', max: 200 }).optional(),
});

export const AuditEntry = z.object({
  id: z.string(),
  vendorId: z.string(),
  actor: z.string(),
  action: z.string(),
  note: z.string(),
  at: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** The client organization of a referral (spec 1: "a client organization and optional notes"). */
export const ClientOrganization = z.strictObject({
  name: text({ label: 'Organization', max: 200, required: "Please enter the client's organization" }),
  website: urlText('Website', 300).default(''),
  size: z.enum(COMPANY_SIZES, { error: 'Unknown company size' }).optional(),
  country: text({ label: 'Country', max: 120 }).default(''),
  industry: text({ label: 'Industry', max: 120 }).default(''),
});
export type ClientOrganization = z.infer<typeof ClientOrganization>;

/** How a referral meets the vendor's ICP, in plain words. */
export const IcpFit = z.object({
  /** Facts that fit. */
  fits: z.array(z.string()),
  /** Hard criteria the client clearly fails: any one and the lead is not routed. */
  fails: z.array(z.string()),
  /** Criteria the referral says nothing about (never exclude). */
  unknown: z.array(z.string()),
});
export type IcpFit = z.infer<typeof IcpFit>;

/** The vendor's decision on a lead, as stored: new until it accepts or declines it. */
export const LEAD_STATUSES = ['new', 'accepted', 'declined'] as const;
export const LeadStatus = z.enum(LEAD_STATUSES);
export type LeadStatus = z.infer<typeof LeadStatus>;

/**
 * Where a lead stands, as both sides read it: the vendor's decision, or `withdrawn` while the referrer has it
 * in Declined and the vendor has not declined it (nothing to accept, decline or confirm then; the referrer
 * moving it out of Declined opens it again).
 */
export const LEAD_STATES = [...LEAD_STATUSES, 'withdrawn'] as const;
export const LeadState = z.enum(LEAD_STATES);
export type LeadState = z.infer<typeof LeadState>;

export const DeclineLeadRequest = z.strictObject({
  reason: text({ label: 'Reason', max: 1000, multiline: true, required: 'Please tell the referrer why' }),
});
