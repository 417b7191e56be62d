import {
  COMPANY_SIZES,
  COUNTRIES,
  DEPARTMENTS,
  FUNDING_STAGES,
  INDUSTRIES,
  JOB_TITLES,
  SENIORITY_LEVELS,
} from '@app/contracts';
import { describe, expect, it } from 'vitest';

const alphabetical = (items: readonly string[]) => [...items].sort((a, b) => a.localeCompare(b, 'en'));
const unique = (items: readonly string[]) => new Set(items.map((item) => item.toLowerCase())).size === items.length;
const clean = (items: readonly string[]) =>
  items.every((item) => item.length > 0 && item === item.trim() && !/\s{2}/.test(item) && item.length <= 120);

/** The flag emoji of an ISO 3166-1 alpha-2 code: its letters as regional indicator symbols. */
const flagOf = (code: string) =>
  String.fromCodePoint(...[...code].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
const regionNames = new Intl.DisplayNames('en', { type: 'region', fallback: 'code' });

describe('option lists (spec 3)', () => {
  it('has about 250 industries, Accounting through Writing and Editing, alphabetical and unique', () => {
    expect(INDUSTRIES.length).toBeGreaterThanOrEqual(230);
    expect(INDUSTRIES.length).toBeLessThanOrEqual(280);
    expect(INDUSTRIES[0]).toBe('Accounting');
    expect(INDUSTRIES.at(-1)).toBe('Writing and Editing');
    expect(INDUSTRIES).toEqual(alphabetical(INDUSTRIES));
    expect(unique(INDUSTRIES)).toBe(true);
    expect(clean(INDUSTRIES)).toBe(true);
  });

  it('has about 200 countries with a valid ISO 3166-1 alpha-2 code and the matching flag, alphabetical and unique', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(190);
    expect(COUNTRIES.length).toBeLessThanOrEqual(250);
    const names = COUNTRIES.map((country) => country.name);
    expect(names).toEqual(alphabetical(names));
    expect(unique(names)).toBe(true);
    expect(clean(names)).toBe(true);
    expect(unique(COUNTRIES.map((country) => country.code))).toBe(true);
    for (const { name, code, flag } of COUNTRIES) {
      expect(code, name).toMatch(/^[A-Z]{2}$/);
      // A code ICU knows as a region has a name other than the code itself.
      expect(regionNames.of(code), `${name} ${code}`).not.toBe(code);
      expect(flag, name).toBe(flagOf(code));
    }
    for (const [code, name] of [
      ['US', 'United States'],
      ['GB', 'United Kingdom'],
      ['DE', 'Germany'],
      ['IN', 'India'],
      ['BR', 'Brazil'],
    ]) {
      expect(COUNTRIES.find((country) => country.code === code)?.name).toBe(name);
    }
  });

  it('has several hundred job titles, alphabetical and unique', () => {
    expect(JOB_TITLES.length).toBeGreaterThanOrEqual(300);
    expect(JOB_TITLES).toEqual(alphabetical(JOB_TITLES));
    expect(unique(JOB_TITLES)).toBe(true);
    expect(clean(JOB_TITLES)).toBe(true);
    for (const title of [
      'Chief Executive Officer',
      'Chief Technology Officer',
      'VP of Sales',
      'Software Engineer',
      'Marketing Manager',
    ])
      expect(JOB_TITLES).toContain(title);
  });

  it('keeps the 26 departments, Administrative to Unemployed, and the fixed lists', () => {
    expect(DEPARTMENTS).toHaveLength(26);
    expect(DEPARTMENTS[0]).toBe('Administrative');
    expect(DEPARTMENTS.at(-1)).toBe('Unemployed');
    expect([...DEPARTMENTS]).toEqual(alphabetical(DEPARTMENTS));
    expect(unique(DEPARTMENTS)).toBe(true);
    expect(COMPANY_SIZES).toHaveLength(9);
    expect(SENIORITY_LEVELS).toHaveLength(13);
    expect(FUNDING_STAGES).toHaveLength(7);
  });
});
