import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * The SSRF guard of outbound webhooks: a URL may be called only if every address its host resolves to is a
 * public unicast address. Checked when an endpoint is registered and again at every delivery, which then
 * connects to the address it checked (pinned), so a DNS answer that changes in between (rebinding) cannot
 * send the request inside.
 */

/** An address as bytes (4 for IPv4, 16 for IPv6), or null when it is not an IP address. */
export function addressBytes(address: string): number[] | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return bare.split('.').map(Number);
  if (version !== 6) return null;
  let text = bare.toLowerCase();
  const bytes: number[] = [];
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (dotted) {
    tail = dotted[1]!.split('.').map(Number);
    text = text.slice(0, -dotted[1]!.length);
    text = text.endsWith('::') ? text : text.replace(/:$/, '');
  }
  const groupsNeeded = dotted ? 6 : 8;
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const missing = groupsNeeded - left.length - right.length;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  if (groups.length !== groupsNeeded) return null;
  for (const group of groups) {
    const value = parseInt(group || '0', 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return [...bytes, ...tail];
}

type Range = [prefix: number[], bits: number, why: string];

const v4 = (cidr: string, why: string): Range => {
  const [address, bits] = cidr.split('/');
  return [addressBytes(address!)!, Number(bits), why];
};
const v6 = (cidr: string, why: string): Range => {
  const [address, bits] = cidr.split('/');
  return [addressBytes(address!)!, Number(bits), why];
};

/** Every IPv4 range that is not the public internet (RFC 6890 and friends). */
const PRIVATE_V4: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local (cloud metadata)'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', '6to4 relay'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

/** IPv6 ranges that are not the public internet; addresses embedding an IPv4 one are judged by it. */
const PRIVATE_V6: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('100::/64', 'discard'),
  v6('2001:db8::/32', 'documentation'),
  v6('2001::/23', 'IETF protocol assignments (Teredo, ORCHID...)'),
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('ff00::/8', 'multicast'),
];

/** IPv6 forms that carry an IPv4 address: [prefix, bits, byte offset of the IPv4 address]. */
const EMBEDDING_V4: Array<[number[], number, number]> = [
  [addressBytes('::ffff:0:0')!, 96, 12], // IPv4-mapped
  [addressBytes('::')!, 96, 12], // IPv4-compatible (deprecated)
  [addressBytes('64:ff9b::')!, 96, 12], // NAT64
  [addressBytes('64:ff9b:1::')!, 48, 12], // local NAT64
  [addressBytes('2002::')!, 16, 2], // 6to4
];

const inRange = (bytes: number[], prefix: number[], bits: number) => {
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[bit >> 3]! & mask) !== (prefix[bit >> 3]! & mask)) return false;
  }
  return true;
};

/** Why an address may not be called (loopback, private...), or null for a public unicast address. */
export function privateReason(address: string): string | null {
  const bytes = addressBytes(address);
  if (!bytes) return 'not an IP address';
  if (bytes.length === 4) return PRIVATE_V4.find(([prefix, bits]) => inRange(bytes, prefix, bits))?.[2] ?? null;
  // First the IPv6 ranges themselves (:: and ::1 are not IPv4 0.0.0.0 / 0.0.0.1), then embedded IPv4.
  const own = PRIVATE_V6.find(([prefix, bits]) => inRange(bytes, prefix, bits));
  if (own) return own[2];
  for (const [prefix, bits, offset] of EMBEDDING_V4) {
    if (inRange(bytes, prefix, bits)) {
      const embedded = privateReason(bytes.slice(offset, offset + 4).join('.'));
      if (embedded) return `${embedded} (IPv4 inside IPv6)`;
    }
  }
  return null;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Every address the system resolver gives for a host (/etc/hosts included, as connecting would). */
export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

export type AddressCheck =
  { ok: true; addresses: ResolvedAddress[] } | { ok: false; reason: 'private' | 'unresolvable'; detail: string };

/**
 * Resolves the URL's host and checks every address (one private address is enough to refuse: the client
 * could pick it). With `allowPrivate` (development, tests) only resolution is required.
 */
export async function checkWebhookUrl(
  url: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<AddressCheck> {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return { ok: false, reason: 'unresolvable', detail: 'not a URL' };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = isIP(hostname)
      ? [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }]
      : await (options.resolve ?? systemResolver)(hostname);
  } catch (error) {
    return { ok: false, reason: 'unresolvable', detail: `${hostname} does not resolve (${(error as Error).message})` };
  }
  if (!addresses.length) return { ok: false, reason: 'unresolvable', detail: `${hostname} has no address` };
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const why = privateReason(address);
      if (why) return { ok: false, reason: 'private', detail: `${hostname} resolves to ${address}: ${why}` };
    }
  }
  return { ok: true, addresses };
}
