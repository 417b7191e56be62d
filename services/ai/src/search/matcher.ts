import { compact, companyForms, webAddress, words } from './normalize.ts';
import { ORIGINS, type Origin, type Product } from './product.ts';
import { allowedTypos, bitCount, countsApart, editDistance, letterCounts, letterMask } from './similarity.ts';

/** What a name key is; on equal evidence a product's own name beats an alias, its domain, its company. */
const KINDS = ['company', 'domain', 'alias', 'name'] as const;
type KeyKind = (typeof KINDS)[number];

interface Entry {
  item: IndexedItem;
  kind: KeyKind;
  text: string;
  letters: Uint8Array;
}

/** The entries of one key length, with their letter masks side by side for a tight first filter. */
interface LengthBucket {
  entries: Entry[];
  masks: Int32Array;
}

interface IndexedItem {
  product: Product;
  origin: Origin;
  /** Position within its source: the last tie-breaker, so answers never depend on timing. */
  position: number;
  site: { host: string; path: string } | null;
}

/** One source's products prepared for matching: name keys by text and by length, web addresses. */
export interface ProductIndex {
  items: IndexedItem[];
  byText: Map<string, Entry[]>;
  byLength: Map<number, LengthBucket>;
}

export type MatchedBy = 'name' | 'alias' | 'company' | 'domain' | 'url' | 'similar';

export interface ProductMatch {
  product: Product;
  origin: Origin;
  matchedBy: MatchedBy;
  /**
   * The query is this product beyond doubt: the whole text is its name, alias, company or web address.
   * Partial and typo-tolerant matches are not exact (a language model, when configured, may know better).
   */
  exact: boolean;
  /** The query's words the match was made on (none for a web address): "team" alone is not a product. */
  words: string[];
}

function keysOf(product: Product, site: IndexedItem['site']): Array<{ kind: KeyKind; text: string }> {
  const keys: Array<{ kind: KeyKind; text: string }> = [{ kind: 'name', text: compact(product.product) }];
  for (const alias of product.aliases ?? []) keys.push({ kind: 'alias', text: compact(alias) });
  for (const form of companyForms(product.company)) keys.push({ kind: 'company', text: form });
  // "hubspot" from hubspot.com; subdomains (business.adobe.com) name the company, not the product.
  const labels = site?.host.split('.') ?? [];
  if (labels.length === 2 && labels[0]) keys.push({ kind: 'domain', text: compact(labels[0]) });
  return keys.filter((key, i) => key.text && keys.findIndex((k) => k.kind === key.kind && k.text === key.text) === i);
}

function append<K>(map: Map<K, Entry[]>, key: K, entry: Entry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

export function indexProducts(products: readonly Product[], origin: Origin): ProductIndex {
  const index: ProductIndex = { items: [], byText: new Map(), byLength: new Map() };
  const byLength = new Map<number, Entry[]>();
  products.forEach((product, position) => {
    const site = product.website ? webAddress(product.website) : null;
    const item: IndexedItem = { product, origin, position, site };
    index.items.push(item);
    for (const key of keysOf(product, site)) {
      const entry: Entry = { item, ...key, letters: letterCounts(key.text) };
      // Appended in place: copying the list for each entry made indexing quadratic in the catalogue.
      append(index.byText, key.text, entry);
      append(byLength, key.text.length, entry);
    }
  });
  for (const [length, entries] of byLength)
    index.byLength.set(length, { entries, masks: Int32Array.from(entries, (entry) => letterMask(entry.letters)) });
  return index;
}

/** Larger is better, compared element by element; the last elements break ties deterministically. */
type Rank = number[];

function better(a: Rank, b: Rank | undefined): boolean {
  if (!b) return true;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! > b[i]!;
  }
  return false;
}

const originRank = (origin: Origin) => ORIGINS.length - ORIGINS.indexOf(origin);

/**
 * The product a web address points at: same host (or a subdomain of it, app.hubspot.com), and among
 * products sharing a host the one whose site path the address continues (github.com/features/copilot).
 */
function matchAddress(address: { host: string; path: string }, indexes: readonly ProductIndex[]): IndexedItem | null {
  let best: { item: IndexedItem; rank: Rank } | undefined;
  for (const item of indexes.flatMap((index) => index.items)) {
    if (!item.site) continue;
    const { host, path } = item.site;
    const hostRank =
      address.host === host ? 3 : address.host.endsWith(`.${host}`) ? 2 : host.endsWith(`.${address.host}`) ? 1 : 0;
    if (!hostRank) continue;
    const continues = path === '' || address.path === path || address.path.startsWith(`${path}/`);
    const rank = [hostRank, continues ? path.length : -1, originRank(item.origin), -item.position];
    if (better(rank, best?.rank)) best = { item, rank };
  }
  return best?.item ?? null;
}

/** The query's words and runs of up to four neighbouring words, run together ("hubsopt crm" → hubsopt, crm, hubsoptcrm). */
function pieces(text: string): Array<{ text: string; words: string[] }> {
  const list = words(text).slice(0, 16);
  const found = new Map<string, string[]>();
  const whole = list.join('');
  if (whole.length <= 80) found.set(whole, list);
  for (let size = 4; size >= 1; size--) {
    for (let start = 0; start + size <= list.length; start++) {
      const run = list.slice(start, start + size);
      if (!found.has(run.join(''))) found.set(run.join(''), run);
    }
  }
  // Longest first: a piece can score at most its share of the text, so shorter ones are often skipped.
  return [...found]
    .map(([text, words]) => ({ text, words }))
    .sort((a, b) => b.text.length - a.text.length || (a.text < b.text ? -1 : 1));
}

/**
 * Finds the product a search text means, or null. A web address is matched by host and path. Otherwise
 * every name key (name, alias, company, domain label, compared in compact form) is scored against the
 * text's words and word runs: closeness (1 when equal, less per typo, within `allowedTypos`) times the
 * share of the text the piece covers. Ties go to a key with the same first letter (people rarely mistype
 * that one), the stronger kind of key, the more trusted origin, then the earlier product of its source.
 */
export function matchProduct(query: string, indexes: readonly ProductIndex[]): ProductMatch | null {
  const address = webAddress(query);
  if (address) {
    const item = matchAddress(address, indexes);
    if (item)
      return {
        product: item.product,
        origin: item.origin,
        matchedBy: address.path ? 'url' : 'domain',
        exact: true,
        words: [],
      };
  }

  // An unknown address may still name the product: "salesfroce.com" is Salesforce with a typo.
  const text = address ? (address.host.split('.').at(-2) ?? address.host) : query;
  const whole = compact(text);
  if (!whole) return null;

  let best: { entry: Entry; closeness: number; rank: Rank; words: string[] } | undefined;
  const consider = (
    entry: Entry,
    { text: piece, words: run }: { text: string; words: string[] },
    closeness: number,
  ) => {
    const rank = [
      closeness * (piece.length / whole.length),
      closeness,
      piece[0] === entry.text[0] ? 1 : 0,
      KINDS.indexOf(entry.kind),
      originRank(entry.item.origin),
      -entry.item.position,
    ];
    if (better(rank, best?.rank)) best = { entry, closeness, rank, words: run };
  };

  for (const found of pieces(text)) {
    const piece = found.text;
    if (best && piece.length / whole.length < best.rank[0]!) break;
    const letters = letterCounts(piece);
    const mask = letterMask(letters);
    for (const index of indexes) for (const entry of index.byText.get(piece) ?? []) consider(entry, found, 1);
    const allowed = allowedTypos(piece.length + 2);
    for (let length = piece.length - allowed; length <= piece.length + allowed; length++) {
      const longest = Math.max(piece.length, length);
      const typos = allowedTypos(longest);
      if (!typos) continue;
      for (const index of indexes) {
        const bucket = index.byLength.get(length);
        if (!bucket) continue;
        const { entries, masks } = bucket;
        for (let i = 0; i < entries.length; i++) {
          // Letters in one text and not the other: a lower bound of countsApart, in a few instructions.
          if (bitCount(mask ^ masks[i]!) > 2 * typos) continue;
          const entry = entries[i]!;
          // Four-letter names get their one typo only with the first letter right ("jria" is Jira, "zoho" is not Zoom).
          if (entry.text === piece || (longest < 5 && piece[0] !== entry.text[0])) continue;
          if (countsApart(letters, entry.letters) > 2 * typos) continue;
          const distance = editDistance(piece, entry.text, typos);
          if (distance <= typos) consider(entry, found, 1 - distance / longest);
        }
      }
    }
  }
  if (!best) return null;
  const { entry, closeness, rank } = best;
  const matchedBy: MatchedBy = closeness < 1 ? 'similar' : entry.kind;
  return {
    product: entry.item.product,
    origin: entry.item.origin,
    matchedBy,
    exact: !address && rank[0] === 1,
    words: address ? [] : best.words,
  };
}
