import { websiteHost, type ClientOrganization, type IcpFit } from '@app/contracts';
import { checkIcp } from '@app/domain';
import type { Sql } from './db.ts';
import { verifiedVendorProgram } from './programs-repository.ts';
import { leadCriteriaOf, vendorById, verifiedVendorByHost, type StoredVendor } from './vendors-repository.ts';

/**
 * Routing at submission: where a referral goes and how its client fits the vendor's ICP. Only a VERIFIED
 * vendor workspace is ever a destination; without one the referral is tracked as before, nothing routed.
 */

export interface Destination {
  product: string;
  company: string;
  website: string;
}

/**
 * The verified vendor a referral to this product goes to, by evidence only: (1) the product website's domain
 * is the vendor's verified domain (or a subdomain of it); (2) it is the website of an active program linked
 * to the vendor (programs a member saves must be on the vendor's own domain; administrators link the rest).
 * A name is never enough: anyone can call a workspace "Bravo" (issue 9), so a product without a website is
 * tracked, not routed. Nor is a referral routed to a workspace with nobody to receive it.
 */
export async function destinationVendor(tx: Sql, destination: Destination): Promise<StoredVendor | null> {
  const host = websiteHost(destination.website);
  if (!host) return null;
  const vendor = (await verifiedVendorByHost(tx, host)) ?? (await programVendor(tx, host));
  // A workspace nobody would hear of a lead from (no member, no lead inbox: one an administrator created and
  // nobody joined yet) receives none: the referrer would be told it was delivered when it reached no one.
  return vendor && leadRecipients(vendor).length > 0 ? vendor : null;
}

async function programVendor(tx: Sql, host: string): Promise<StoredVendor | null> {
  const program = await verifiedVendorProgram(tx, host);
  if (!program) return null;
  const vendor = await vendorById(tx, program.vendorId);
  return vendor?.verified ? vendor : null;
}

export interface Route {
  vendor: StoredVendor | null;
  /** Null when there is no vendor or it has no ICP. */
  fit: IcpFit | null;
  /** False when the client clearly fails a hard criterion of the vendor's ICP. */
  routable: boolean;
}

/** The vendor's ICP against what the referrer says of the client (an unknown fact never excludes). */
export async function fitOf(tx: Sql, vendorId: string, client: ClientOrganization): Promise<IcpFit | null> {
  const criteria = await leadCriteriaOf(tx, vendorId);
  if (!criteria) return null;
  return checkIcp(criteria, {
    companySize: client.size || undefined,
    country: client.country || undefined,
    industry: client.industry || undefined,
  });
}

export async function routeOf(tx: Sql, destination: Destination, client: ClientOrganization): Promise<Route> {
  const vendor = await destinationVendor(tx, destination);
  if (!vendor) return { vendor: null, fit: null, routable: true };
  const fit = await fitOf(tx, vendor.id, client);
  return { vendor, fit, routable: !fit || fit.fails.length === 0 };
}

/** Who is emailed about a new lead: the lead inbox and every member, each address once (case aside). */
export function leadRecipients(vendor: StoredVendor): string[] {
  const seen = new Map<string, string>();
  for (const address of [vendor.leadInbox, ...vendor.members.map((m) => m.email)]) {
    const trimmed = address.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()];
}
