import { stripLegalSuffixes } from '@app/contracts';

const collapse = (value: string) => value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** What an AI search answers when it found no company (spec 3): no company to match anyone with. */
const NOT_FOUND = 'not found';

/**
 * A company name as it is compared: lower case, spaces collapsed, legal suffixes stripped ("Acme GmbH",
 * "ACME" and "Acme, Inc." are one company). '' for no company. Only a matching hint: a vendor is
 * identified by its id once it has a workspace.
 */
export function companyKey(companyName: string | null | undefined): string {
  if (!companyName?.trim()) return '';
  const key = collapse(stripLegalSuffixes(collapse(companyName)));
  return key === NOT_FOUND ? '' : key;
}

/**
 * Free webmail and consumer mail providers: an address there proves nothing about a company, so such a
 * domain can neither be a workspace's website nor verify one (as Slack, Notion and Linear do).
 */
const WEBMAIL = new Set(
  `gmail.com googlemail.com yahoo.com yahoo.co.uk yahoo.fr yahoo.de yahoo.es yahoo.it yahoo.co.jp ymail.com rocketmail.com
   outlook.com hotmail.com hotmail.co.uk hotmail.fr hotmail.de hotmail.it hotmail.es live.com live.co.uk live.fr msn.com
   passport.com icloud.com me.com mac.com aol.com aim.com proton.me protonmail.com protonmail.ch pm.me tutanota.com
   tuta.io gmx.com gmx.net gmx.de gmx.at gmx.ch mail.com email.com zoho.com zohomail.com yandex.com yandex.ru ya.ru
   mail.ru inbox.ru list.ru bk.ru qq.com 163.com 126.com yeah.net sina.com sohu.com naver.com daum.net hanmail.net
   web.de t-online.de freenet.de orange.fr wanadoo.fr free.fr laposte.net sfr.fr libero.it virgilio.it tiscali.it
   btinternet.com sky.com virginmedia.com ntlworld.com talktalk.net comcast.net verizon.net att.net sbcglobal.net
   bellsouth.net cox.net charter.net earthlink.net optonline.net rediffmail.com fastmail.com fastmail.fm hey.com
   hushmail.com mailfence.com posteo.de posteo.net mailbox.org rambler.ru seznam.cz wp.pl o2.pl interia.pl onet.pl
   bol.com.br uol.com.br terra.com.br shaw.ca rogers.com sympatico.ca bigpond.com optusnet.com.au`.split(/\s+/),
);

/**
 * Providers whose country variants are as open as their main domain ("outlook.fr", "yahoo.com.au",
 * "hotmail.co.jp", "live.de"): the brand followed by a country or generic top-level domain is webmail too.
 */
const WEBMAIL_BRANDS = new Set(
  `gmail googlemail yahoo ymail outlook hotmail live msn windowslive aol gmx yandex protonmail icloud`.split(/\s+/),
);

/**
 * The second levels registries sell names under ("co.uk", "com.au", "ne.jp"): such a pair is a registry's
 * suffix, not a company's domain.
 */
const REGISTRY_SECOND_LEVELS = new Set(
  `co com net org gov gouv gob edu ac ne or go mil nic ltd plc sch nom me id gen ind firm biz info`.split(/\s+/),
);

const hostLabels = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '').split('.');

/**
 * Whether a domain is a top-level domain or a registry's suffix ("co.uk", "com.br"): everyone under it is a
 * different company, so it can be neither a workspace's website nor proven by an address under it.
 */
export function isPublicSuffixLike(domain: string): boolean {
  const labels = hostLabels(domain);
  if (labels.length < 2 || labels.some((label) => !label)) return true;
  return labels.length === 2 && /^[a-z]{2}$/.test(labels[1]!) && REGISTRY_SECOND_LEVELS.has(labels[0]!);
}

/**
 * A host and its parent domains (where a referral to the host is routed, and what a verified workspace holds) ("eu.acme.com" -> itself and "acme.com"), never a bare TLD nor a registry's
 * suffix ("acme.co.uk" -> only itself: a workspace or program on "co.uk" is nobody's company).
 */
export function hostAndParents(host: string | null): string[] {
  if (!host) return [];
  const labels = host.split('.');
  return labels
    .slice(0, -1)
    .map((_, i) => labels.slice(i).join('.'))
    .filter((domain) => !isPublicSuffixLike(domain));
}

/** A top-level domain a webmail brand is sold under: "com", "net", a country ("de") or a registry's ("co.uk"). */
const isTopLevel = (labels: string[]) =>
  (labels.length === 1 && /^(com|net|[a-z]{2})$/.test(labels[0]!)) ||
  (labels.length === 2 && isPublicSuffixLike(labels.join('.')));

/**
 * Whether a domain (or a subdomain of one, e.g. "mail.yahoo.com") is a webmail provider, including the
 * providers' country variants ("outlook.fr", "yahoo.com.au").
 */
export function isWebmailDomain(domain: string): boolean {
  const labels = hostLabels(domain);
  for (let i = 0; i < labels.length - 1; i++) {
    if (WEBMAIL.has(labels.slice(i).join('.'))) return true;
    if (WEBMAIL_BRANDS.has(labels[i]!) && isTopLevel(labels.slice(i + 1))) return true;
  }
  return false;
}

/** The label a domain is registered under: "acme" for "eu.acme.co.uk" and "acme.com", "evil" for "hubspot.evil.com". */
function registeredLabel(domain: string): string {
  const labels = hostLabels(domain);
  for (let k = 2; k <= labels.length; k++)
    if (!isPublicSuffixLike(labels.slice(-k).join('.'))) return labels[labels.length - k]!;
  return '';
}

/**
 * Whether a company or product name names this domain: the label the domain is registered under is the
 * name's first word, or its first words run together ("initrode" for "Initrode Systems, Inc.", "bluesky"
 * or "blue-sky" for "Blue Sky Ltd"). What ties a workspace's programs and website to a product that is known
 * only by its names: the workspace's own name is anyone's claim ("HubSpot" on evil.com), its domain is not.
 */
export function nameNamesDomain(name: string | null | undefined, domain: string | null | undefined): boolean {
  const label = domain ? registeredLabel(domain).replace(/-/g, '') : '';
  if (!label) return false;
  const words = companyKey(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let joined = '';
  for (const word of words) {
    joined += word;
    if (joined === label) return true;
    if (joined.length >= label.length) return false;
  }
  return false;
}

/** The domain part of an email address, lower case ('' when there is none). */
export const emailDomain = (email: string) => email.trim().toLowerCase().split('@')[1] ?? '';

/**
 * Whether an address proves membership of a company with this website domain: the same domain or one of its
 * subdomains ("ana@eu.acme.com" for "acme.com"), never a webmail domain nor a registry's suffix ("co.uk").
 */
export function emailOnDomain(email: string, domain: string): boolean {
  const from = emailDomain(email);
  const site = domain.trim().toLowerCase();
  if (!from || !site || isWebmailDomain(from) || isWebmailDomain(site) || isPublicSuffixLike(site)) return false;
  return from === site || from.endsWith(`.${site}`);
}
