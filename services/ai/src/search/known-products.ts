import type { EventPayload } from '@app/contracts';
import { NOT_FOUND } from '@app/contracts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { compact, companyCore } from './normalize.ts';
import type { Product, ProductSource } from './product.ts';

type Project = EventPayload<'referral.created'>['project'];

/** Enough for every product a deployment's users refer; the most recently referred are kept when there are more. */
const MAX_SEARCHED = 5000;
/** Other instances learn of new products within this time; this one at once. */
const CACHE_MS = 30_000;
/**
 * A product referred again as this instance wrote it less than this long ago is not written again: most new
 * referrals name a product already known, and the upsert was a write and a commit per referral
 * (bench:pipeline). Its recency (which products are kept past MAX_SEARCHED) is then to this precision.
 */
const UNCHANGED_MS = 60_000;

const siteUrl = (website: string | null) => {
  if (!website) return null;
  try {
    const url = new URL(website);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href.slice(0, 500) : null;
  } catch {
    return null;
  }
};

/** Products the system knows from referrals (`referral.created`), searched beside the catalogue. */
export function knownProducts(prisma: PrismaClient): ProductSource & { remember(project: Project): Promise<void> } {
  let cache: { at: number; products: readonly Product[] } | null = null;
  /** What this instance last wrote per key, and when (bounded: cleared past MAX_SEARCHED keys). */
  const written = new Map<string, { data: string; at: number }>();

  return {
    origin: 'referral',

    async products() {
      if (cache && Date.now() - cache.at < CACHE_MS) return cache.products;
      const rows = await prisma.knownProduct.findMany({
        orderBy: [{ updatedAt: 'desc' }, { key: 'asc' }],
        take: MAX_SEARCHED,
      });
      const products = rows.map((row) => ({
        product: row.productName,
        company: row.companyName,
        description: row.description,
        website: row.website,
      }));
      cache = { at: Date.now(), products };
      return products;
    },

    /**
     * Records the product of a new referral (its name, company and site); the same product typed another way
     * updates the one row. Never the referral's description: it is the referrer's own text, and this row is
     * shown to every user who searches the product (one user's words never reach another user's referral or
     * draft; docs/product-decisions.md): the search answers it without a description.
     */
    async remember(project) {
      const productName = project.productName.trim().slice(0, 200);
      if (!productName || productName === NOT_FOUND || !compact(productName)) return;
      const companyName = project.companyName.trim().slice(0, 200);
      const key = `${compact(productName)}|${companyCore(companyName)}`;
      const data = {
        productName,
        companyName: companyName || NOT_FOUND,
        description: '',
        website: siteUrl(project.website),
      };
      const same = JSON.stringify(data);
      const last = written.get(key);
      if (last?.data === same && Date.now() - last.at < UNCHANGED_MS) return;
      await prisma.knownProduct.upsert({ where: { key }, create: { key, ...data }, update: data });
      if (written.size >= MAX_SEARCHED) written.clear();
      written.set(key, { data: same, at: Date.now() });
      cache = null;
    },
  };
}
