/**
 * Damerau-Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and
 * transpositions of neighbours, so "salesfroce" is one edit from "salesforce"). Gives up once the
 * distance must exceed `max`, returning max + 1: most comparisons are far apart and end early.
 */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  // Three rows reused across calls: searches compare thousands of short names and should not allocate.
  if (rows[0].length < width) rows = [new Int32Array(width), new Int32Array(width), new Int32Array(width)];
  let [before, previous, current] = rows;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // No later row can come back under `max` (a transposition reaches back one row, at a cost).
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** How often each letter and digit occurs: a cheap first test before the edit distance. */
export function letterCounts(text: string): Uint8Array {
  const counts = new Uint8Array(36);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const slot = code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? code - 22 : -1;
    if (slot >= 0 && counts[slot]! < 255) counts[slot]!++;
  }
  return counts;
}

/**
 * A lower bound of the edit distance times two: an insertion or deletion changes the letter counts by
 * one, a substitution by two, a transposition not at all. Counts further apart than 2 × max cannot match.
 */
export function countsApart(a: Uint8Array, b: Uint8Array): number {
  let total = 0;
  for (let i = 0; i < 36; i++) total += Math.abs(a[i]! - b[i]!);
  return total;
}

/**
 * Which letters and digits occur, one bit each (the ten digits share bits 26-31): a letter present in one
 * text and absent from the other adds at least one to countsApart, and bits of disjoint groups count
 * apart, so bitCount(maskA ^ maskB) <= countsApart(a, b). Scanning thousands of names, that test in a few
 * instructions rules out most of them before the 36 counts are compared (issue 15: a catalogue 10x today's).
 */
export function letterMask(counts: Uint8Array): number {
  let mask = 0;
  for (let i = 0; i < 36; i++) if (counts[i]) mask |= 1 << (i < 26 ? i : 26 + ((i - 26) % 6));
  return mask;
}

/** The number of bits set in a 32-bit integer. */
export function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * How many typos a name of this length may carry and still be recognised: none below four characters
 * ("box" vs "bot" are different things), one up to eight, two from nine.
 */
export function allowedTypos(length: number): number {
  if (length < 4) return 0;
  return length >= 9 ? 2 : 1;
}
