/** Words that say nothing about what a client needs. */
const STOPWORDS = new Set(
  'a an and are as at be but by for from has have i in is it its of on or our so that the their them they this to was we were will with you your need needs want wants looking look client clients customer customers tool tools software solution solutions platform company help helps better new best some any all more'.split(
    ' ',
  ),
);

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

/** Index terms: plain words without stopwords, stemmed. */
export function terms(text: string): string[] {
  return plainWords(text)
    .filter((word) => !STOPWORDS.has(word) && (word.length > 1 || /\d/.test(word)))
    .map(stem);
}

/** Comparable form of a short fact ("  Germany " / "germany"). */
export const fold = (text: string) => plainWords(text).join(' ');
