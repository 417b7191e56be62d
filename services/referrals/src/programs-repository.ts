import { websiteHost, type EventPayload } from '@app/contracts';
import { companyKey, hostAndParents, nameNamesDomain } from '@app/domain';
import type { Sql, Tx } from './db.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { currentBounties } from './money-repository.ts';
import { productKey } from './projects.ts';

/** Data access of referral programs (copied from `program.saved`) and of what projects know of theirs. */

/**
 * Stores a program as the programs service saved it; an event older than the stored row (a late
 * redelivery) changes nothing.
 */
export async function storeProgram(tx: Tx, program: EventPayload<'program.saved'>, savedAt: Date): Promise<void> {
  const { programId, name, rewardDetails, companyName, isActive, vendorId, description, website } = program;
  const existing = await tx.program.findUnique({ where: { id: programId }, select: { savedAt: true } });
  if (existing && existing.savedAt > savedAt) return;
  const data = {
    name,
    nameKey: productKey(name),
    rewardDetails,
    companyName,
    companyKey: companyKey(companyName) || null,
    vendorId,
    description,
    domain: websiteHost(website),
    isActive,
    savedAt,
  };
  await tx.program.upsert({ where: { id: programId }, create: { id: programId, ...data }, update: data });
}

export interface VendorProgram {
  vendorId: string;
  description: string;
}

/**
 * The active program of a VERIFIED vendor for a product: one on the product's website first, then one of
 * its company (the program's company or its vendor's name), then one named like the product; the most
 * recently saved wins. Null when there is none.
 */
export async function verifiedVendorProgram(tx: Sql, host: string | null): Promise<VendorProgram | null> {
  if (!host) return null;
  const hosts = hostAndParents(host);
  const [row] = await tx.$queryRaw<Array<{ vendor_id: string; description: string }>>`
    SELECT p.vendor_id, p.description
      FROM programs p JOIN vendors v ON v.id = p.vendor_id
     WHERE p.is_active AND v.verified AND p.domain = ANY(${hosts}::text[])
     ORDER BY p.saved_at DESC, p.id
     LIMIT 1`;
  return row ? { vendorId: row.vendor_id, description: row.description } : null;
}

/** The description of a verified vendor's active program for the product (the project's shared text), or ''. */
export async function vendorProductDescription(tx: Sql, vendorId: string, productName: string): Promise<string> {
  const [row] = await tx.$queryRaw<Array<{ description: string }>>`
    SELECT p.description FROM programs p JOIN vendors v ON v.id = p.vendor_id
     WHERE p.vendor_id = ${vendorId} AND v.verified AND p.is_active AND p.description <> ''
     ORDER BY (p.name_key = ${productKey(productName)}) DESC, p.saved_at DESC, p.id
     LIMIT 1`;
  return row?.description ?? '';
}

/** The links referrals knows for a product's vendor (https URLs), each null when unknown. */
export interface VendorLinks {
  /** The vendor workspace's website: the workspace of a program for the product, else a verified workspace of its company or site. */
  vendorWebsite: string | null;
  /** The vendor's referral program page: the website of a program for the product (active ones first). */
  programWebsite: string | null;
}

const siteOf = (domain: string | null | undefined) => (domain ? `https://${domain}` : null);

/** How many programs or workspaces a product's names may find before the ones its names do not vouch for are left out. */
const NAME_CANDIDATES = 20;

/**
 * Whether a product known by its names may be given a workspace's program or website: a program no
 * workspace is linked to (an administrator's), or a workspace whose domain the product's company or name
 * names (`nameNamesDomain`). A workspace's own name is anyone's claim: a verified workspace on evil.com
 * calling itself "HubSpot" is never HubSpot's program, nor its site in the dry-run preview.
 */
const namesVouchFor = (product: { productName: string; companyName: string }, vendorDomain: string | null) =>
  nameNamesDomain(product.companyName, vendorDomain) || nameNamesDomain(product.productName, vendorDomain);

/**
 * Whether a program found by a product's names is that product's: an administrator's unlinked one, one of the
 * workspace the user's own referral was routed to (`routedVendorId`: routing is by evidence, the product's
 * site), or one of a workspace whose domain the names name.
 */
const counts = (
  product: { productName: string; companyName: string },
  row: { vendor_id: string | null; vendor_domain: string | null },
  routedVendorId: string | null,
) =>
  row.vendor_id === null ||
  (routedVendorId !== null && row.vendor_id === routedVendorId) ||
  namesVouchFor(product, row.vendor_domain);

/**
 * The vendor's and its program's links for a product (issue 12), from referrals' copies of programs and
 * vendor workspaces: a program of the product's company or name (active first, newest first) gives its
 * website and its workspace's; without a workspace that way, a verified workspace of the product's site
 * or company. A workspace counts only where the product's names name its domain, or where the user's own
 * referral was routed to it (`counts`). Hints for the program check and the dry-run preview, never routing
 * evidence.
 */
export async function vendorLinks(
  db: Pick<PrismaClient, '$queryRaw'>,
  product: { productName: string; companyName: string; website: string | null },
  routedVendorId: string | null = null,
): Promise<VendorLinks> {
  const key = companyKey(product.companyName) || null;
  const programs = await db.$queryRaw<
    Array<{ domain: string | null; vendor_id: string | null; vendor_domain: string | null }>
  >`
    SELECT p.domain, p.vendor_id, nullif(v.domain, '') AS vendor_domain
      FROM programs p LEFT JOIN vendors v ON v.id = p.vendor_id
     WHERE (p.company_key = ${key} OR v.company_key = ${key} OR p.name_key = ${productKey(product.productName)})
       AND (p.domain IS NOT NULL OR nullif(v.domain, '') IS NOT NULL)
     ORDER BY p.is_active DESC, coalesce(p.company_key = ${key} OR v.company_key = ${key}, false) DESC, p.saved_at DESC, p.id
     LIMIT ${NAME_CANDIDATES}`;
  const program = programs.find((row) => counts(product, row, routedVendorId));
  let vendorDomain = program?.vendor_domain ?? null;
  if (!vendorDomain) {
    const hosts = hostAndParents(product.website ? websiteHost(product.website) : null);
    // The routed workspace first, then one of the product's site, then one of its company's name.
    const vendors = await db.$queryRaw<Array<{ id: string; domain: string }>>`
      SELECT id, domain FROM vendors
       WHERE verified AND domain <> '' AND (id = ${routedVendorId} OR domain = ANY(${hosts}::text[]) OR company_key = ${key})
       ORDER BY coalesce(id = ${routedVendorId}, false) DESC, (domain = ANY(${hosts}::text[])) DESC, id
       LIMIT ${NAME_CANDIDATES}`;
    vendorDomain =
      vendors.find(
        (vendor) =>
          vendor.id === routedVendorId || hosts.includes(vendor.domain) || namesVouchFor(product, vendor.domain),
      )?.domain ?? null;
  }
  return { vendorWebsite: siteOf(vendorDomain), programWebsite: siteOf(program?.domain) };
}

interface ProgramRow {
  id: string;
  name: string;
  reward_details: string;
  vendor_id: string | null;
  vendor_domain: string | null;
}

export function programsRepository(prisma: PrismaClient) {
  return {
    findProject: (projectId: string) => prisma.project.findUnique({ where: { id: projectId } }),

    vendorLinks: (product: { productName: string; companyName: string; website: string | null }) =>
      vendorLinks(prisma, product),

    /**
     * The vendor's active program for a product: one of its company first (the program's company name, or
     * the name of the vendor workspace it is linked to), else one named like the product; the most recently
     * saved wins. An inactive program never counts, nor one of a workspace that neither the user's referral
     * was routed to nor the product's names name (`counts`).
     */
    async activeProgram(product: { productName: string; companyName: string }, routedVendorId: string | null = null) {
      const key = companyKey(product.companyName) || null;
      const rows = await prisma.$queryRaw<ProgramRow[]>`
        SELECT p.id, p.name, p.reward_details, p.vendor_id, nullif(v.domain, '') AS vendor_domain
          FROM programs p LEFT JOIN vendors v ON v.id = p.vendor_id
         WHERE p.is_active AND (p.company_key = ${key} OR v.company_key = ${key} OR p.name_key = ${productKey(product.productName)})
         ORDER BY coalesce(p.company_key = ${key} OR v.company_key = ${key}, false) DESC, p.saved_at DESC, p.id
         LIMIT ${NAME_CANDIDATES}`;
      const row = rows.find((program) => counts(product, program, routedVendorId));
      return row ? { id: row.id, name: row.name, rewardDetails: row.reward_details } : null;
    },

    /** The bounties of a verified workspace; null when it has none or is not verified (as when confirming). */
    vendorBounties: (vendorId: string) => currentBounties(prisma, vendorId),

    /** A program found for the project (kept), or null: nobody knew one at this time (not asked again soon). */
    async rememberProgram(projectId: string, referralProgram: string | null): Promise<void> {
      await prisma.project.update({
        where: { id: projectId },
        data: { ...(referralProgram ? { referralProgram } : {}), programCheckedAt: new Date() },
      });
    },
  };
}

export type ProgramsRepository = ReturnType<typeof programsRepository>;
