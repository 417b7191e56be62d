import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../src/catalogue/catalogue.ts';
import { indexProducts, matchProduct } from '../src/search/matcher.ts';
import { compact } from '../src/search/normalize.ts';
import { bitCount, countsApart, editDistance, letterCounts, letterMask } from '../src/search/similarity.ts';

const catalogue = loadCatalogue();
const index = indexProducts(catalogue, 'catalogue');
const find = (query: string) => matchProduct(query, [index]);

describe('the bundled catalogue', () => {
  it('holds at least 300 products, each named once, with an https website and a one-sentence description', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(300);
    const names = catalogue.map((p) => compact(p.product));
    expect(new Set(names).size).toBe(names.length);
    for (const product of catalogue) {
      const url = new URL(product.website!);
      expect(url.protocol, product.product).toBe('https:');
      expect(url.hostname, product.product).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}$/);
      expect(product.company.trim(), product.product).not.toBe('');
      expect(product.description, product.product).toMatch(/^[A-Z0-9].{10,}\.$/);
    }
  });

  it('gives every product a name no other product uses as its name or alias', () => {
    const owners = new Map<string, string>();
    for (const product of catalogue) {
      for (const name of [product.product, ...(product.aliases ?? [])]) {
        const key = compact(name);
        expect(owners.get(key) ?? product.product, `"${name}" is claimed twice`).toBe(product.product);
        owners.set(key, product.product);
      }
    }
  });
});

describe('every catalogue product', () => {
  it('is found by its name, each alias and its website', () => {
    for (const product of catalogue) {
      for (const query of [product.product, ...(product.aliases ?? []), product.website!]) {
        expect(find(query)?.product.product, query).toBe(product.product);
      }
    }
  });
});

describe('edit distance', () => {
  it.each([
    ['salesforce', 'salesfroce', 1],
    ['notion', 'notoin', 1],
    ['hubspot', 'hubsopt', 1],
    ['kitten', 'sitting', 3],
    ['same', 'same', 0],
  ])('%s ↔ %s is %i', (a, b, distance) => {
    expect(editDistance(a, b, 5)).toBe(distance);
  });

  it('stops early beyond the allowed distance', () => {
    expect(editDistance('zendesk', 'freshdesk', 1)).toBe(2);
  });

  it('letter masks never rule out more than the letter counts do (the faster filter loses no match)', () => {
    const keys = loadCatalogue().flatMap((p) => [
      compact(p.product),
      compact(p.company),
      ...(p.aliases ?? []).map(compact),
    ]);
    const probes = ['hubsopt', 'salesfroce', 'm365', 'office365', 'x', 'zoom10', '0123456789', 'jria', 'qqqq'];
    for (const a of [...probes, ...keys.slice(0, 60)]) {
      const counts = letterCounts(a);
      for (const b of keys) {
        const apart = countsApart(counts, letterCounts(b));
        expect(bitCount(letterMask(counts) ^ letterMask(letterCounts(b)))).toBeLessThanOrEqual(apart);
      }
    }
    expect(bitCount(letterMask(letterCounts('abc')) ^ letterMask(letterCounts('abd')))).toBe(2);
    expect(bitCount(-1)).toBe(32);
  });
});

describe('matching', () => {
  it.each([
    ['Slack', 'Slack', 'name'],
    ['hubspot', 'HubSpot', 'name'],
    ['HUBSPOT, INC.', 'HubSpot', 'company'],
    ['Notion Labs', 'Notion', 'company'],
    ['sfdc', 'Salesforce', 'alias'],
    ['office 365', 'Microsoft 365', 'alias'],
    ['hubspot.com', 'HubSpot', 'domain'],
    ['https://www.hubspot.com/pricing', 'HubSpot', 'url'],
    ['https://github.com/features/copilot', 'GitHub Copilot', 'url'],
    ['github.com', 'GitHub', 'domain'],
    ['app.asana.com', 'Asana', 'domain'],
    ['salesfroce', 'Salesforce', 'similar'],
    ['hubsopt', 'HubSpot', 'similar'],
    ['notoin', 'Notion', 'similar'],
    ['jria', 'Jira', 'similar'],
    ['Zendsek', 'Zendesk', 'similar'],
    ['google analytics', 'Google Analytics', 'name'],
    ['zoominfo pricing', 'ZoomInfo', 'name'],
    ['weights & biases', 'Weights & Biases', 'name'],
    ['salesfroce.com', 'Salesforce', 'similar'],
    ['google naalytics', 'Google Analytics', 'similar'],
    ['microsoft ydnamics 365', 'Microsoft Dynamics 365', 'similar'],
    ['darta', 'Drata', 'similar'],
  ])('"%s" finds %s (by %s)', (query, product, matchedBy) => {
    const match = find(query);
    expect(match?.product.product).toBe(product);
    expect(match?.matchedBy).toBe(matchedBy);
  });

  it('calls only whole-text and address matches exact', () => {
    expect(find('Slack')?.exact).toBe(true);
    expect(find('Notion Labs')?.exact).toBe(true);
    expect(find('https://slack.com/pricing')?.exact).toBe(true);
    expect(find('slack pricing')?.exact).toBe(false);
    expect(find('slak')?.exact).toBe(false);
  });

  it.each(['qwertyuiop', 'zz', 'my cousin vinny', 'https://unknown-vendor.example'])(
    'finds nothing for "%s"',
    (query) => {
      expect(find(query)).toBeNull();
    },
  );

  it('answers the same every time (ties go to the earlier product)', () => {
    const first = find('atlassian');
    for (let i = 0; i < 5; i++) expect(find('atlassian')?.product.product).toBe(first?.product.product);
    expect(first?.product.company).toBe('Atlassian Corporation');
  });
});
