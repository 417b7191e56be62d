import { parseSearchContent, SearchResponse } from '@app/contracts';
import { eventually, freshDatabase } from '@app/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownProducts } from '../src/search/known-products.ts';
import { json, referralCreated, signedIn, startAi, type RunningAi, dropDatabase } from './support.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let ai: RunningAi;
let sql: pg.Pool;

beforeAll(async () => {
  db = await freshDatabase();
  ai = await startAi(db.url);
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  await ai?.close();
  await sql?.end();
  await dropDatabase(db);
});

async function search(query: unknown, headers: Record<string, string> = signedIn()) {
  return ai.service.app.inject({
    method: 'POST',
    url: '/api/search',
    headers: { ...json, ...headers },
    payload: typeof query === 'string' ? JSON.stringify({ query }) : JSON.stringify(query),
  });
}

async function found(query: string) {
  const response = await search(query);
  expect(response.statusCode).toBe(200);
  const body = SearchResponse.parse(response.json());
  const extras = response.json() as { website: string | null; matchedBy: string };
  return { body, extras, product: parseSearchContent(body.choices[0]!.message.content) };
}

describe('POST /api/search without a language model', () => {
  it('answers in the chat-completion shape with labelled lines the web parses', async () => {
    const { body, extras } = await found('Slack');
    expect(extras).toMatchObject({ website: 'https://slack.com', matchedBy: 'name' });
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'local-catalogue',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
    });
    expect(body.id).toMatch(/^search-/);
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(60);
    expect(body.choices[0]!.message.content).toBe(
      'Product: Slack\nCompany: Slack Technologies, LLC\nDescription: Team messaging app with channels, huddles and integrations.\nWebsite: https://slack.com',
    );
  });

  it.each([
    ['by product name', 'Notion', 'Notion', 'Notion Labs, Inc.'],
    ['by name in another case, with punctuation', '  HUBSPOT!! ', 'HubSpot', 'HubSpot, Inc.'],
    ['by company', 'Atlassian Corporation', 'Jira', 'Atlassian Corporation'],
    ['by company without its legal suffix', 'Zendesk Inc', 'Zendesk', 'Zendesk, Inc.'],
    ['by alias', 'office 365', 'Microsoft 365', 'Microsoft Corporation'],
    ['by domain', 'pipedrive.com', 'Pipedrive', 'Pipedrive Inc.'],
    ['by www domain', 'www.shopify.com', 'Shopify', 'Shopify Inc.'],
    ['by full URL', 'https://www.hubspot.com/pricing', 'HubSpot', 'HubSpot, Inc.'],
    [
      'by URL with a path naming another product of the host',
      'https://www.atlassian.com/software/confluence/templates',
      'Confluence',
      'Atlassian Corporation',
    ],
    ['by URL of a subdomain', 'https://app.asana.com/0/home', 'Asana', 'Asana, Inc.'],
    ['with a transposition', 'salesfroce', 'Salesforce', 'Salesforce, Inc.'],
    ['with swapped letters', 'hubsopt', 'HubSpot', 'HubSpot, Inc.'],
    ['with a typo in a short name', 'notoin', 'Notion', 'Notion Labs, Inc.'],
    ['with a missing letter', 'mailchip', 'Mailchimp', 'Intuit Inc.'],
    ['with a typo and an extra word', 'zendsek support', 'Zendesk', 'Zendesk, Inc.'],
  ])('finds a product %s: "%s"', async (_how, query, product, company) => {
    expect((await found(query)).product).toMatchObject({ product, company });
  });

  it("answers the spec's not-found defaults when nothing matches", async () => {
    const { body, product, extras } = await found('qwertyuiop asdfgh');
    expect(extras).toMatchObject({ website: null, matchedBy: 'none' });
    expect(product).toEqual({
      product: 'Not found',
      company: 'Not found',
      description: 'No description available',
      website: '',
    });
    expect(body.choices[0]!.message.content).toBe(
      'Product: Not found\nCompany: Not found\nDescription: No description available',
    );
  });

  it('answers the same for the same text every time', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(async () => (await found('atlassian')).body.choices[0]!.message.content),
    );
    expect(new Set(answers).size).toBe(1);
  });

  it('also finds products the system learnt from referrals', async () => {
    expect((await found('Quokka Ledger')).product.product).toBe('Not found');
    const learnt = async (product: string) => (await found(product)).product.product === product;
    await ai.bus.publish(
      referralCreated({
        project: {
          productName: 'Quokka Ledger',
          companyName: 'Quokka Labs Pty Ltd',
          description: 'Bookkeeping for marsupials.',
          website: 'https://quokkaledger.example',
        },
      }),
    );
    await eventually(() => learnt('Quokka Ledger'), 10_000, 'the referred product to be known');
    // Without the referrer's description: their words are theirs (another user picking this product would
    // otherwise send them in their own referral).
    expect((await found('Quokka Ledger')).product).toEqual({
      product: 'Quokka Ledger',
      company: 'Quokka Labs Pty Ltd',
      description: 'No description available',
      website: 'https://quokkaledger.example/',
    });
    expect((await found('quokaledger')).product.product).toBe('Quokka Ledger');
    expect((await found('https://quokkaledger.example/pricing')).product.product).toBe('Quokka Ledger');
    // The same product typed again updates its one row.
    await ai.bus.publish(
      referralCreated({
        project: {
          productName: 'quokka ledger',
          companyName: 'Quokka Labs',
          description: 'Cloud bookkeeping.',
          website: null,
        },
      }),
    );
    const known = async () =>
      (await sql.query("SELECT product_name, description FROM ai.known_products WHERE key LIKE 'quokkaledger|%'")).rows;
    await eventually(async () => (await known())[0]?.product_name === 'quokka ledger', 10_000, 'the update');
    expect(await known()).toEqual([{ product_name: 'quokka ledger', description: '' }]);
  });

  it('writes a product referred again unchanged once, and a changed one at once', async () => {
    const known = knownProducts(ai.service.prisma);
    const project = {
      id: 'wombat-wiki',
      productName: 'Wombat Wiki',
      companyName: 'Wombat Co',
      description: 'Docs.',
      website: null,
    };
    const row = async () =>
      (await sql.query("SELECT website, description, updated_at FROM ai.known_products WHERE key LIKE 'wombatwiki|%'"))
        .rows;
    await known.remember(project);
    const [first] = await row();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await known.remember(project);
    expect(await row()).toEqual([first]);
    // Another description alone changes nothing: it is never kept.
    await known.remember({ ...project, description: 'Docs and wikis.' });
    expect(await row()).toEqual([first]);
    await known.remember({ ...project, website: 'https://wombat.example' });
    const [changed] = await row();
    expect([changed.website, changed.description]).toEqual(['https://wombat.example/', '']);
    expect(changed.updated_at.getTime()).toBeGreaterThan(first.updated_at.getTime());
  });

  it('keeps the catalogue first when a referral names a catalogue product differently', async () => {
    await ai.bus.publish(
      referralCreated({
        project: { productName: 'Slack', companyName: 'Someone Else', description: 'Typed by a user.', website: null },
      }),
    );
    await eventually(
      async () =>
        (await sql.query("SELECT 1 FROM ai.known_products WHERE company_name = 'Someone Else'")).rowCount === 1,
      10_000,
      'the referred product to be known',
    );
    expect((await found('Slack')).product.company).toBe('Slack Technologies, LLC');
  });
});

describe('POST /api/search refuses', () => {
  it('a request without a signed-in user (401) and a forged identity', async () => {
    const anonymous = await search('Slack', {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    const forged = await search('Slack', { 'x-identity': 'e30.forged' });
    expect(forged.statusCode).toBe(401);
  });

  it.each([
    ['an empty query', { query: '' }, 'Please enter a product, company, or website URL'],
    ['a blank query', { query: '   ' }, 'Please enter a product, company, or website URL'],
    ['a missing query', {}, 'Please enter a product, company, or website URL'],
    ['an overlong query', { query: 'x'.repeat(501) }, 'Search text must be at most 500 characters'],
    ['an unknown field', { query: 'Slack', model: 'gpt-4' }, 'Unrecognized key: "model"'],
    ['a wrong type', { query: 42 }, 'Please enter a product, company, or website URL'],
    ['an array', ['Slack'], 'expected object'],
  ])('%s with a clear 400', async (_case, body, message) => {
    const response = await search(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });

  it('malformed JSON (400) and a body over the size limit (413)', async () => {
    const malformed = await ai.service.app.inject({
      method: 'POST',
      url: '/api/search',
      headers: { ...json, ...signedIn() },
      payload: '{"query":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'Malformed JSON body', code: 'MALFORMED_BODY' });
    const huge = await search({ query: 'x'.repeat(70 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ message: 'Request body is too large', code: 'BODY_TOO_LARGE' });
  });
});
