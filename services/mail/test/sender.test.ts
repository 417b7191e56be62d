import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import type { SentEmails } from '../src/repository.ts';
import { displayName, emailSender } from '../src/sender.ts';

/** The sender over nodemailer's stream transport: the message exactly as it would go on the wire. */
function wire() {
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const raw: string[] = [];
  const transport = {
    sendMail: async (options: SendMailOptions) => {
      const info = await stream.sendMail(options);
      raw.push((info.message as Buffer).toString('utf8'));
      return info;
    },
  } as unknown as Transporter;
  const sent = {
    claim: async () => 'claim-id',
    isSent: async () => false,
    markSent: async () => undefined,
    markFailed: async () => undefined,
  } as unknown as SentEmails;
  const sendOnce = emailSender({ sent, transport, from: 'Referral Hub <hello@example.com>' });
  const headers = async (fromName: string) => {
    await sendOnce(
      '11111111-2222-3333-4444-555555555555',
      'referral-intro',
      { to: ['jo@globex.test'], replyTo: 'ana@agency.test', fromName },
      { subject: 'Intro', text: 'Hi', html: '<p>Hi</p>' },
    );
    return raw.at(-1)!.split('\n\n')[0]!;
  };
  return { headers };
}

describe('the sender of an email', () => {
  it('is a display name at our address, without what makes a name pass for an address or a quoted name', async () => {
    const { headers } = wire();
    expect(await headers(`Ana "AJ" O'Neil via Referral Hub`)).toMatch(
      /^From: "Ana AJ O'Neil via Referral Hub" <hello@example\.com>$/m,
    );
    expect(await headers('Ana Lee via Referral Hub')).toMatch(/^From: Ana Lee via Referral Hub <hello@example\.com>$/m);
    expect(await headers('Mallory <evil@attacker.test>')).toMatch(
      /^From: "Mallory evil attacker\.test" <hello@example\.com>$/m,
    );
    // Issue 11: the product field once made this display name.
    const spoof = (await headers('"PayPal Security <security@paypal.com>" via Referral Hub')).replace(/\n\s+/g, ' ');
    expect(spoof).toMatch(/^From: "PayPal Security security paypal\.com via Referral Hub" <hello@example\.com>$/m);
    expect(spoof.match(/^From: .*$/m)![0].match(/@/g)).toHaveLength(1);
  });

  it('keeps a name on one line: line breaks become spaces, no header is added', async () => {
    const { headers } = wire();
    const head = await headers('Mallory\r\nBcc: evil@attacker.test\nX-Evil: 1');
    expect(head).toMatch(/^From: "Mallory Bcc: evil attacker\.test X-Evil: 1" <hello@example\.com>$/m);
    expect(head).not.toMatch(/^Bcc:/m);
    expect(head).not.toMatch(/^X-Evil:/m);
  });

  it('falls back to MAIL_FROM for no name or a blank one', async () => {
    const { headers } = wire();
    expect(await headers('')).toMatch(/^From: Referral Hub <hello@example\.com>$/m);
    expect(await headers(' \r\n ')).toMatch(/^From: Referral Hub <hello@example\.com>$/m);
    expect(await headers('<@>"')).toMatch(/^From: Referral Hub <hello@example\.com>$/m);
  });

  it('cleans display names: one line, no address signs, quotes, control or format characters, capped', () => {
    expect(displayName(`  Ana  "AJ"\tO'Neil \u2028via Referral Hub `)).toBe(`Ana AJ O'Neil via Referral Hub`);
    expect(displayName('Zoë Ødegård via Referral Hub')).toBe('Zoë Ødegård via Referral Hub');
    expect(displayName('\u202eevil\u200b＜ceo＠bank.example＞ “Boss”')).toBe('evil ceo bank.example Boss');
    expect(displayName('x'.repeat(300))).toHaveLength(100);
    expect(displayName('😀'.repeat(150))).toBe('😀'.repeat(100));
  });
});

describe('an SMTP server that cannot be reached', () => {
  it('fails the send with one line naming SMTP_URL and its host, never its password', async () => {
    const url = 'smtp://mailer:s3cret@127.0.0.1:1';
    const failed: unknown[] = [];
    const sent = {
      claim: async () => 'claim-id',
      isSent: async () => false,
      markSent: async () => undefined,
      markFailed: async (_id: string, error: unknown) => void failed.push(error),
    } as unknown as SentEmails;
    // A real SMTP connection, to a port nothing listens on.
    const transport = nodemailer.createTransport(url);
    const sendOnce = emailSender({ sent, transport, from: 'Referral Hub <hello@example.com>', smtpUrl: url });
    const error = await sendOnce(
      '11111111-2222-3333-4444-555555555555',
      'referral-intro',
      { to: ['jo@globex.test'] },
      { subject: 'Intro', text: 'Hi', html: '<p>Hi</p>' },
    ).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^Cannot reach SMTP at 127\.0\.0\.1:1 \(SMTP_URL\): .+/);
    expect(error?.message).not.toContain('s3cret');
    expect(failed).toHaveLength(1); // recorded as failed: the event comes again and it is retried
    transport.close();
  });
});
