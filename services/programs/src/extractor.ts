import { findVendorName } from './vendor-name.ts';

/**
 * The deterministic reader of program documents, used without a language model and as the model's
 * fallback and guard. It never rewrites the reward details: they are cut out of the text as they stand.
 */
export interface ExtractedProgram {
  programName: string;
  description: string;
  website: string;
  rewardDetails: string;
  /** The vendor the document names ('' when none): a proposal, never a link. */
  vendorName: string;
}

const REWARD_WORDS =
  /\b(rewards?|commissions?|bount(y|ies)|pay-?outs?|referral fees?|earn(s|ings|ed)?|incentives?|compensation|bonus(es)?|payments?|paid|pays?)\b/i;
const AMOUNT = /([$€£¥]\s?\d|\d[\d,.]*\s?(%|percent|USD|EUR|GBP|dollars))/i;
const LABEL = /^\s*([A-Za-z][A-Za-z ]{1,30}):\s*(.*)$/;
const LIST_ITEM = /^\s*([-*•·◦▪–]|\d+[.)]|[a-z][.)]|\(\w+\))\s+/;
const URL = /\bhttps?:\/\/[^\s<>"'()]+/i;
const DOMAIN =
  /(?<![@\w.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|io|co|net|org|ai|app|dev|biz|us|uk|de|fr|eu|ca|au|in|xyz|tech|cloud|so|me)(?:\/[^\s<>"'()]*)?)(?![\w@-])/i;

interface Line {
  text: string;
  /** Offsets of the line in the document text, so sections are cut out verbatim. */
  start: number;
  end: number;
  blank: boolean;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    lines.push({ text: raw, start, end: start + raw.length, blank: raw.trim() === '' });
    start += raw.length + 1;
  }
  return lines;
}

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean);

/** A title or section heading: markdown '#', ALL CAPS, Title Case, 'Heading:' or a short stand-alone line. */
function isHeading(lines: Line[], index: number): boolean {
  const line = lines[index];
  if (!line || line.blank) return false;
  const text = line.text.trim();
  if (/^#{1,6}\s+\S/.test(text)) return true;
  if (LIST_ITEM.test(text) || text.length > 90 || URL.test(text)) return false;
  if (/[.!?,;]$/.test(text)) return false;
  const labelled = LABEL.exec(text);
  if (labelled && labelled[2]) return false; // 'Label: value' is content
  const list = words(text);
  if (list.length > 10) return false;
  if (text.endsWith(':')) return true;
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length >= 3 && letters === letters.toUpperCase()) return true;
  const significant = list.filter((word) => word.replace(/[^A-Za-z]/g, '').length > 3);
  if (significant.length > 0 && significant.every((word) => /^[^A-Za-z]*[A-Z]/.test(word)) && !AMOUNT.test(text))
    return true;
  // A short line standing alone between blank lines (or at the start) in a text with paragraphs.
  const alone = (index === 0 || lines[index - 1]?.blank) && (index === lines.length - 1 || lines[index + 1]?.blank);
  return Boolean(alone) && list.length <= 6 && !AMOUNT.test(text);
}

const headingText = (text: string) =>
  text
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/:$/, '')
    .trim();

function labelled(lines: Line[], names: RegExp): string | null {
  for (const line of lines) {
    const match = LABEL.exec(line.text);
    if (match?.[1] && names.test(match[1].trim()) && match[2]?.trim()) return match[2].trim();
  }
  return null;
}

/** The first http(s) URL, or failing that a bare domain as https://. */
export function findWebsite(text: string): string {
  const url = URL.exec(text)?.[0]?.replace(/[.,;:!?\]}>]+$/, '');
  if (url) return url;
  const domain = DOMAIN.exec(text)?.[1]?.replace(/[.,;:!?\]}>]+$/, '');
  return domain ? `https://${domain}` : '';
}

/** The text from line `from` to line `to` (inclusive), exactly as in the document. */
const slice = (text: string, lines: Line[], from: number, to: number) =>
  text.slice(lines[from]!.start, lines[to]!.end).trim();

/** The reward section(s), verbatim: under headings about rewards, else the paragraphs that mention them. */
export function findRewardDetails(
  text: string,
  lines: Line[] = linesOf(text),
  headings: Set<number> = headingIndexes(lines),
): string {
  const sections: string[] = [];
  const sorted = [...headings].sort((a, b) => a - b);
  const nextHeading = (after: number) => sorted.find((h) => h > after) ?? lines.length;
  for (let i = 0; i < sorted.length; i++) {
    const heading = sorted[i]!;
    if (!REWARD_WORDS.test(lines[heading]!.text)) continue;
    // The section runs to the next heading that neither names rewards nor has amounts or reward words under it.
    let end = nextHeading(heading);
    while (end < lines.length) {
      const following = nextHeading(end);
      const body = slice(text, lines, end, following - 1);
      if (REWARD_WORDS.test(lines[end]!.text) || REWARD_WORDS.test(body) || AMOUNT.test(body)) end = following;
      else break;
    }
    const body = end - 1 >= heading + 1 ? slice(text, lines, heading + 1, end - 1) : '';
    sections.push(body || lines[heading]!.text.trim());
    while (i + 1 < sorted.length && sorted[i + 1]! < end) i++;
  }
  if (sections.length > 0) return sections.join('\n\n');

  // No such heading: every paragraph (run of non-blank lines) that speaks of rewards or amounts, whole.
  const paragraphs: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.blank || headings.has(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < lines.length && !lines[j + 1]!.blank && !headings.has(j + 1)) j++;
    const paragraph = slice(text, lines, i, j);
    if (
      REWARD_WORDS.test(paragraph) &&
      (AMOUNT.test(paragraph) || /\b(commission|bounty|payout|referral fee|reward)/i.test(paragraph))
    )
      paragraphs.push(paragraph);
    i = j + 1;
  }
  return paragraphs.join('\n\n');
}

function headingIndexes(lines: Line[]): Set<number> {
  const set = new Set<number>();
  lines.forEach((_, index) => {
    if (isHeading(lines, index)) set.add(index);
  });
  return set;
}

export function extractProgram(text: string): ExtractedProgram {
  const lines = linesOf(text);
  const headings = headingIndexes(lines);
  const first = lines.findIndex((line) => !line.blank);

  const named = labelled(lines, /^(program( name)?|name|program title)$/i);
  let titleIndex = -1;
  let programName = named ?? '';
  if (!programName && first >= 0) {
    titleIndex = [...headings].sort((a, b) => a - b).find((h) => h === first) ?? first;
    const candidate = headingText(lines[titleIndex]!.text);
    programName = candidate.length <= 200 ? candidate : '';
  }

  const website = (() => {
    const given = labelled(lines, /^(website|url|web site|homepage|site)$/i);
    return (given && findWebsite(given)) || findWebsite(text);
  })();

  const rewardDetails = findRewardDetails(text, lines, headings);

  let description = labelled(lines, /^(description|overview|summary|about)$/i) ?? '';
  if (!description) {
    let i = 0;
    while (i < lines.length) {
      if (lines[i]!.blank || headings.has(i) || i === titleIndex) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < lines.length && !lines[j + 1]!.blank && !headings.has(j + 1)) j++;
      const paragraph = lines
        .slice(i, j + 1)
        .map((line) => line.text.trim())
        .join(' ');
      const onlyLabels = lines.slice(i, j + 1).every((line) => LABEL.test(line.text));
      const onlyUrl = paragraph.replace(URL, '').trim() === '';
      if (!onlyLabels && !onlyUrl && !(rewardDetails && rewardDetails.includes(slice(text, lines, i, j)))) {
        description = paragraph;
        break;
      }
      i = j + 1;
    }
  }
  if (!description) {
    // Text without paragraphs (PDF lines): the first plain line that is neither the title nor about rewards.
    const line = lines.find(
      (l, index) =>
        !l.blank &&
        index !== titleIndex &&
        !headings.has(index) &&
        !REWARD_WORDS.test(l.text) &&
        !LABEL.test(l.text) &&
        l.text.replace(URL, '').trim() !== '',
    );
    description = line?.text.trim() ?? '';
  }
  if (description.length > 5000) description = `${description.slice(0, 4999).replace(/\s+\S*$/, '')}…`;

  const title = first >= 0 ? headingText(lines[first]!.text) : '';
  const vendorName = findVendorName(text, { programName, website, title });
  return { programName, description, website, rewardDetails, vendorName };
}
