import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME_MAX, displayNameText } from '../src/index.ts';

describe("displayNameText (issue 11): a person's text made safe for an email display name", () => {
  it.each([
    ['PayPal Security <security@paypal.com>', 'PayPal Security security paypal.com'],
    ['"Ana" \\"AJ\\" `x`', 'Ana AJ x'],
    ['“Boss” «Chef» „Chief“', 'Boss Chef Chief'],
    ['Mallory\r\nBcc: evil@attacker.test', 'Mallory Bcc: evil attacker.test'],
    ['\u202egnp.exe\u200b\u2066 Name', 'gnp.exe Name'],
    ['＜ceo＠bank.example＞', 'ceo bank.example'],
    ["Ana O'Neil", "Ana O'Neil"],
    ['Zoë Ødegård', 'Zoë Ødegård'],
    ['  spaced\t\tout  ', 'spaced out'],
    ['<@>""', ''],
    ['\u200b\u200d', ''],
  ])('%j -> %j', (text, expected) => {
    expect(displayNameText(text)).toBe(expected);
  });

  it(`is at most ${DISPLAY_NAME_MAX} characters (or the limit given), never cutting a character in two`, () => {
    expect(displayNameText('x'.repeat(200))).toHaveLength(DISPLAY_NAME_MAX);
    expect(displayNameText('😀'.repeat(80))).toBe('😀'.repeat(DISPLAY_NAME_MAX));
    expect(displayNameText('abc def', 4)).toBe('abc');
  });
});
