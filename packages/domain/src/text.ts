// Light text normalization for matching short business facts (industries, titles, countries).

/** Folds plurals and common endings so "invoices"/"invoicing"/"invoice" meet (a deliberately light stemmer). */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['ing', ''],
    ['ed', ''],
    ['es', ''],
    ['s', ''],
  ] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3 && !word.endsWith('ss'))
      return word.slice(0, -suffix.length) + replacement;
  }
  return word;
}

/** The plain words of a text, lower case, accents removed. */
export function plainWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Comparable form of a short fact ("  Germany " / "germany"). */
export const fold = (text: string) => plainWords(text).join(' ');

/**
 * A name's possessive in the product's texts: "Acme's", and "Acme Analytics'" / "Widgets'" for a name ending
 * in s, where "Widgets's" reads as a typo (most company names that end in s are plurals).
 */
export const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);
