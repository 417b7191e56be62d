// The display name of an email header built from people's text (issue 11: a name must never look like an
// address or carry a header).

/** The longest person's name put in a display name (the sender's "{name} via Referral Hub"). */
export const DISPLAY_NAME_MAX = 64;

/**
 * A person's text made safe for a display name: Unicode normalized (NFKC, so full-width ＜＠＞ become the
 * ASCII signs and are removed with them), then without `<`, `>`, `@`, double quotes of any kind, backslashes
 * and backticks (what makes a name look like an address or a quoted one), without control and format
 * characters (line breaks, bidi overrides, zero-width), on one line, spaces collapsed and cut at `max`
 * characters (never inside a surrogate pair). Apostrophes stay: O'Neil is a name.
 */
export function displayNameText(text: string, max = DISPLAY_NAME_MAX): string {
  const cleaned = text
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/[<>@"\\`\u00ab\u00bb\u201c-\u201f\u2039\u203a\u2033\u2036\u275d\u275e\u301d-\u301f]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return Array.from(cleaned).slice(0, max).join('').trim();
}
