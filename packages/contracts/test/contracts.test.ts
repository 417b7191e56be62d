import { describe, expect, it } from 'vitest';
import {
  CreateReferralRequest,
  CreateVendorRequest,
  DemoRequest,
  InviteMemberRequest,
  LoginRequest,
  normalizeRecipients,
  parseSearchContent,
  SendEmailRequest,
  stripLegalSuffixes,
} from '../src/index.ts';

describe('every address field (docs/product-decisions.md, "Addresses an account may take")', () => {
  // The spec's shape, yet a mailer delivers each to another address than the one shown.
  const smuggled = ['jo@globex.test<root>', 'me@evil.com,x.acme.com', 'boss<evil@attacker.test', 'a@b.c;root'];
  const fields = {
    'log-in': (email: string) => LoginRequest.safeParse({ email, password: 'x' }),
    'lead inbox': (email: string) =>
      CreateVendorRequest.safeParse({ name: 'Acme', website: 'https://acme.test', leadInbox: email }),
    invitation: (email: string) => InviteMemberRequest.safeParse({ email }),
    'demo request': (email: string) =>
      DemoRequest.safeParse({
        firstName: 'Grace',
        lastName: 'Hopper',
        email,
        phone: '+1 555 0100',
        website: 'https://navy.example',
      }),
  };
  it.each(Object.entries(fields))('%s refuses an address a mailer reads as another, takes a plain one', (_, parse) => {
    for (const email of smuggled) {
      const result = parse(email);
      expect(result.success, email).toBe(false);
      expect(
        result.error!.issues.filter((issue) => ['email', 'leadInbox'].includes(String(issue.path[0]))),
      ).toHaveLength(1);
    }
    expect(parse("O'Neil+Leads@Acme-Corp.test").success).toBe(true);
  });
});

describe('parseSearchContent (spec 3)', () => {
  it('reads labelled lines, bold markers removed, case-insensitive', () => {
    expect(
      parseSearchContent('**Product:** Slack\nCOMPANY: Slack Technologies, LLC\nProduct Description: Team chat.'),
    ).toEqual({
      product: 'Slack',
      company: 'Slack Technologies, LLC',
      description: 'Team chat.',
      website: '',
    });
    expect(parseSearchContent('Product: Notion\nDescription: Docs and wikis')).toEqual({
      product: 'Notion',
      company: 'Not found',
      description: 'Docs and wikis',
      website: '',
    });
    // The ai service adds the product's website; the spec's labels stay what the screen reads.
    expect(
      parseSearchContent('Product: Slack\nCompany: Salesforce\nDescription: Chat\nWebsite: https://slack.com'),
    ).toEqual({ product: 'Slack', company: 'Salesforce', description: 'Chat', website: 'https://slack.com' });
  });

  it('falls back to the first non-empty line without "learn more", else the defaults', () => {
    expect(parseSearchContent('\nLearn more at example.com\nAcme Rockets\n')).toEqual({
      product: 'Acme Rockets',
      company: 'Not found',
      description: 'No description available',
      website: '',
    });
    expect(parseSearchContent('')).toEqual({
      product: 'Not found',
      company: 'Not found',
      description: 'No description available',
      website: '',
    });
  });
});

describe('stripLegalSuffixes (spec 9)', () => {
  it.each([
    ['Slack Technologies, LLC', 'Slack'],
    ['Acme Inc.', 'Acme'],
    ['Siemens AG', 'Siemens'],
    ['Booking Holdings B.V.', 'Booking Holdings'],
    ['Atlassian Pty Ltd', 'Atlassian'],
    ['Software', 'Software'],
    ['Coca Cola', 'Coca Cola'],
  ])('%s -> %s', (input, expected) => {
    expect(stripLegalSuffixes(input)).toBe(expected);
  });
});

describe('recipients', () => {
  it('accept an array, a JSON string or a comma-separated string, trimmed, empties dropped', () => {
    expect(normalizeRecipients(['a@x.co', ' ', 'b@x.co'])).toEqual(['a@x.co', 'b@x.co']);
    expect(normalizeRecipients('["a@x.co","b@x.co"]')).toEqual(['a@x.co', 'b@x.co']);
    expect(normalizeRecipients(' a@x.co, ,b@x.co ,')).toEqual(['a@x.co', 'b@x.co']);
    expect(normalizeRecipients(undefined)).toEqual([]);
  });

  it("sending needs a 'to' recipient", () => {
    const result = SendEmailRequest.safeParse({ subject: 's', body: 'b', recipients: { to: ' , ' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('At least one recipient is required');
  });
});

describe('referral form (spec 5)', () => {
  it('has the spec messages and defaults', () => {
    const result = CreateReferralRequest.safeParse({
      referredFirstName: '',
      referredLastName: ' ',
      referredEmail: 'x',
      referralReason: '',
      product: 'Slack',
      company: 'Slack Technologies, LLC',
      client: { name: '' },
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'First name is required',
      'Last name is required',
      'Invalid email address',
      'Please explain why this referral is a good fit',
      "Please enter the client's organization",
    ]);
    const ok = CreateReferralRequest.parse({
      referredFirstName: 'A',
      referredLastName: 'B',
      referredEmail: 'A@B.co',
      referralReason: 'fit',
      product: 'Slack',
      company: 'Slack Technologies, LLC',
      client: { name: 'Globex' },
    });
    expect(ok).toMatchObject({
      isReferralAware: false,
      canUseReferrerName: false,
      productId: 'auto-generated',
      referredEmail: 'a@b.co',
      company: 'Slack Technologies, LLC',
      description: '',
    });
  });

  it.each([
    [
      'product',
      { product: 'Not found' },
      'Search found no product to refer: try a product name, a website, or Smart Match',
    ],
    [
      'product',
      { product: ' not FOUND ' },
      'Search found no product to refer: try a product name, a website, or Smart Match',
    ],
    [
      'company',
      { company: 'Not found' },
      'Search found no product to refer: try a product name, a website, or Smart Match',
    ],
    ['company', { company: '' }, 'Company is required'],
    ['company', { company: '   ' }, 'Company is required'],
    ['company', { company: undefined }, 'Company is required'],
  ])('refuses a referral whose %s is empty or "Not found" (issue 12): %j', (field, override, message) => {
    const result = CreateReferralRequest.safeParse({
      referredFirstName: 'A',
      referredLastName: 'B',
      referredEmail: 'a@b.co',
      referralReason: 'fit',
      product: 'Slack',
      company: 'Slack Technologies, LLC',
      client: { name: 'Globex' },
      ...override,
    });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([[field, message]]);
  });
});
