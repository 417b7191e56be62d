import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ChangePasswordRequest,
  CreateProgramRequest,
  CreateReferralRequest,
  DemoRequest,
  ListReferralsQuery,
  LoginRequest,
  RegisterRequest,
  SendEmailRequest,
  text,
} from '../src/index.ts';

const register = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  companyName: 'Engines Ltd',
  email: 'ada@example.com',
  password: 'correct horse',
};

function issue(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false);
  const first = result.error!.issues[0]!;
  return { message: first.message, field: first.path.join('.') };
}

describe('the text rule', () => {
  const name = text({ label: 'First name', max: 100, required: 'First name is required' });
  const body = text({ label: 'Email body', max: 1000, multiline: true });

  it.each([
    ['NUL', 'Ada\u0000'],
    ['a C0 control (bell)', 'Ada\u0007'],
    ['an escape sequence', '\u001b[31mAda'],
    ['DEL', 'Ada\u007f'],
    ['a C1 control (CSI)', 'Ada\u009b'],
    ['a right-to-left override', 'Ada\u202eevil'],
    ['a left-to-right embedding', 'Ada\u202a'],
    ['an isolate', 'Ada\u2066x\u2069'],
    ['a zero-width space inside text', 'A\u200bda'],
    ['a word joiner', 'A\u2060da'],
    ['a byte-order mark', 'A\ufeffda'],
    ['a soft hyphen', 'A\u00adda'],
    ['a line separator', 'Ada\u2028x'],
    ['a lone surrogate', 'Ada\ud800'],
  ])('refuses %s, naming the field', (_kind, value) => {
    expect(issue(name, value).message).toBe('First name contains characters that are not allowed');
    expect(issue(body, value).message).toBe('Email body contains characters that are not allowed');
  });

  it('takes line feeds and tabs only in multi-line fields, with \\r\\n as \\n', () => {
    expect(issue(name, 'Ada\nLovelace').message).toBe('First name must be a single line');
    expect(issue(name, 'Ada\tLovelace').message).toBe('First name contains characters that are not allowed');
    expect(body.parse('Hello\r\n\r\nBye\rnow\tok')).toBe('Hello\n\nBye\nnow\tok');
    expect(name.parse('\tAda Lovelace\r\n')).toBe('Ada Lovelace');
  });

  it('reads whitespace and zero-width only values as empty, so "required" fails', () => {
    for (const blank of ['\u200b\u200b', ' \u200c\u200d \u2060', '\ufeff', '\u00ad', '\u3000\t']) {
      expect(issue(name, blank).message).toBe('First name is required');
      expect(text({ label: 'Notes', max: 10 }).parse(blank)).toBe('');
    }
  });

  it('normalizes to NFC and trims', () => {
    expect(name.parse('  Zoe\u0301 ')).toBe('Zoé');
    expect(name.parse('Zoe\u0301')).toHaveLength(3);
  });

  it('keeps the letters of every script, emoji sequences and the joiners they need', () => {
    for (const value of ['محمد', 'می‌خواهم', 'श्री', '李小龙', 'Ōtsuka', '👩‍💻 dev', 'Zoë O’Brien-Smith']) {
      expect(name.parse(value)).toBe(value.normalize('NFC'));
    }
  });
});

describe('the contracts apply it', () => {
  it('register: NUL in any field is a 400 naming it, a zero-width-only name is "required"', () => {
    expect(issue(RegisterRequest, { ...register, firstName: 'A\u0000' })).toEqual({
      message: 'First name contains characters that are not allowed',
      field: 'firstName',
    });
    expect(issue(RegisterRequest, { ...register, email: 'ada\u0000@example.com' })).toEqual({
      message: 'Email contains characters that are not allowed',
      field: 'email',
    });
    expect(issue(RegisterRequest, { ...register, lastName: '\u200b\u200d' })).toEqual({
      message: 'Last name is required',
      field: 'lastName',
    });
    expect(issue(RegisterRequest, { ...register, companyName: 'Acme\u202eelpmaxe' })).toEqual({
      message: 'Company name contains characters that are not allowed',
      field: 'companyName',
    });
  });

  it('passwords: control characters refused, spaces and Unicode kept exactly (no trim, no normalization)', () => {
    expect(issue(RegisterRequest, { ...register, password: 'secret\u0000' }).message).toBe(
      'Password contains characters that are not allowed',
    );
    expect(issue(LoginRequest, { email: register.email, password: '\u001b[0m' }).field).toBe('password');
    const password = '  Zoe\u0301 pass  ';
    expect(LoginRequest.parse({ email: register.email, password }).password).toBe(password);
    expect(
      ChangePasswordRequest.parse({ currentPassword: password, newPassword: password, confirmPassword: password })
        .newPassword,
    ).toBe(password);
  });

  it('the intro email: newlines in the body, not in the subject; recipients under the rule', () => {
    const email = { subject: 'Intro', body: 'Hi,\r\nmeet Ada.', recipients: { to: ['ada@example.com'] } };
    expect(SendEmailRequest.parse(email).body).toBe('Hi,\nmeet Ada.');
    expect(issue(SendEmailRequest, { ...email, subject: 'Intro\nBcc: x@y.z' })).toEqual({
      message: 'Subject must be a single line',
      field: 'subject',
    });
    expect(issue(SendEmailRequest, { ...email, recipients: { to: ['ada\u0000@example.com'] } })).toEqual({
      message: 'Recipient email contains characters that are not allowed',
      field: 'recipients.to.0',
    });
  });

  it('referrals, programs, the demo request and search filters', () => {
    const referral = {
      referredFirstName: 'Ada',
      referredLastName: 'Lovelace',
      referredEmail: 'ada@example.com',
      referralReason: 'Needs a CRM',
      product: 'HubSpot',
      company: 'HubSpot, Inc.',
      client: { name: 'Engines' },
    };
    expect(CreateReferralRequest.safeParse(referral).success).toBe(true);
    expect(issue(CreateReferralRequest, { ...referral, product: 'Hub\u202espot' }).field).toBe('product');
    expect(issue(CreateReferralRequest, { ...referral, client: { name: '\u200b' } }).message).toBe(
      "Please enter the client's organization",
    );
    expect(
      issue(CreateProgramRequest, { name: 'P', description: 'd', website: 'https://a.io\u0000', rewardDetails: 'r' }),
    ).toEqual({ message: 'Website contains characters that are not allowed', field: 'website' });
    expect(
      issue(DemoRequest, {
        firstName: 'A',
        lastName: 'B',
        email: 'a@b.co',
        phone: '+1 555 0100\u0000',
        website: 'a.io',
      }).field,
    ).toBe('phone');
    expect(issue(ListReferralsQuery, { search: 'a\u0000' })).toEqual({
      message: 'Search contains characters that are not allowed',
      field: 'search',
    });
  });
});
