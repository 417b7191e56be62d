import type { EventPayload, LeadCriteria } from '@app/contracts';
import { hostAndParents, readCriteria } from '@app/domain';
import type { Sql, Tx } from './db.ts';

/**
 * Data access of the vendor read models (profiles' `vendor.saved`, `lead_criteria.saved`): each keeps the
 * highest version it received, so a late or redelivered older event changes nothing.
 */

export interface VendorMember {
  userId: string;
  email: string;
  name: string;
  role: string;
}

export interface StoredVendor {
  id: string;
  name: string;
  domain: string;
  companyKey: string;
  leadInbox: string;
  verified: boolean;
  members: VendorMember[];
}

interface VendorRow {
  id: string;
  name: string;
  domain: string;
  company_key: string;
  lead_inbox: string;
  verified: boolean;
  members: VendorMember[];
}

const SELECT_VENDOR = 'SELECT id, name, domain, company_key, lead_inbox, verified, members FROM vendors';

const toVendor = (row: VendorRow): StoredVendor => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  companyKey: row.company_key,
  leadInbox: row.lead_inbox,
  verified: row.verified,
  members: Array.isArray(row.members) ? row.members : [],
});

/**
 * Stores a vendor's snapshot unless a newer version is stored. Answers the name it had before (null when
 * it is new) when the snapshot was stored, undefined when it was older than what is kept.
 */
export async function saveVendor(
  tx: Tx,
  vendor: EventPayload<'vendor.saved'>,
): Promise<{ previousName: string | null } | undefined> {
  const [before] = await tx.$queryRaw<Array<{ name: string; version: number }>>`
    SELECT name, version FROM vendors WHERE id = ${vendor.vendorId} FOR UPDATE`;
  if (before && before.version >= vendor.version) return undefined;
  await tx.$executeRaw`
    INSERT INTO vendors (id, version, name, domain, company_key, lead_inbox, verified, members)
    VALUES (${vendor.vendorId}, ${vendor.version}, ${vendor.name}, ${vendor.domain.toLowerCase()}, ${vendor.companyKey},
            ${vendor.leadInbox}, ${vendor.verified}, ${JSON.stringify(vendor.members)}::jsonb)
    ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, name = EXCLUDED.name, domain = EXCLUDED.domain,
      company_key = EXCLUDED.company_key, lead_inbox = EXCLUDED.lead_inbox, verified = EXCLUDED.verified,
      members = EXCLUDED.members`;
  return { previousName: before?.name ?? null };
}

/** Stores a vendor's ICP unless a newer version is stored. */
export async function saveLeadCriteria(
  tx: Tx,
  saved: { vendorId: string; version: number; criteria: LeadCriteria },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO vendor_lead_criteria (vendor_id, version, criteria)
    VALUES (${saved.vendorId}, ${saved.version}, ${JSON.stringify(saved.criteria)}::jsonb)
    ON CONFLICT (vendor_id) DO UPDATE SET version = EXCLUDED.version, criteria = EXCLUDED.criteria
     WHERE vendor_lead_criteria.version < EXCLUDED.version`;
}

export async function vendorById(tx: Sql, vendorId: string): Promise<StoredVendor | null> {
  const [row] = await tx.$queryRawUnsafe<VendorRow[]>(`${SELECT_VENDOR} WHERE id = $1`, vendorId);
  return row ? toVendor(row) : null;
}

/** The verified vendor whose domain is the host or one of its parent domains (the longest wins). */
export async function verifiedVendorByHost(tx: Sql, host: string): Promise<StoredVendor | null> {
  // "app.eu.hubspot.com" -> itself, "eu.hubspot.com", "hubspot.com".
  const candidates = hostAndParents(host);
  if (!candidates.length) return null;
  const [row] = await tx.$queryRawUnsafe<VendorRow[]>(
    `${SELECT_VENDOR} WHERE verified AND domain = ANY($1::text[]) ORDER BY length(domain) DESC, id LIMIT 1`,
    candidates,
  );
  return row ? toVendor(row) : null;
}

/** The verified vendors known by this company key (a hint: the caller decides what several mean). */
export async function verifiedVendorsByKey(tx: Tx, key: string): Promise<StoredVendor[]> {
  if (!key) return [];
  const rows = await tx.$queryRawUnsafe<VendorRow[]>(
    `${SELECT_VENDOR} WHERE verified AND company_key = $1 ORDER BY id LIMIT 2`,
    key,
  );
  return rows.map(toVendor);
}

/** A vendor's lead criteria as stored (read field by field), or null when it has none. */
export async function leadCriteriaOf(tx: Sql, vendorId: string): Promise<LeadCriteria | null> {
  const [row] = await tx.$queryRaw<Array<{ criteria: unknown }>>`
    SELECT criteria FROM vendor_lead_criteria WHERE vendor_id = ${vendorId}`;
  return row ? readCriteria(row.criteria) : null;
}

/**
 * The vendor, its row share-locked until the transaction ends: a referral routed now carries the name a
 * concurrent rename (which locks the row for update) either already wrote or will find among its referrals.
 */
export async function lockVendor(tx: Sql, vendorId: string): Promise<StoredVendor | null> {
  const [row] = await tx.$queryRawUnsafe<VendorRow[]>(`${SELECT_VENDOR} WHERE id = $1 FOR SHARE`, vendorId);
  return row ? toVendor(row) : null;
}
