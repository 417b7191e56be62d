import { connect, type AddressInfo, type Socket } from 'node:net';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import type { SentEmails } from '../src/repository.ts';
import { displayName, emailSender, sendWhole } from '../src/sender.ts';

/** A sent_emails record that always claims (a new email), with what a failure is told. */
const sentRecord = (markFailed: (id: string, error: unknown) => void = () => {}) =>
  ({
    claim: async () => 'claim-id',
    isSent: async () => false,
    markSent: async () => undefined,
    markFailed: async (id: string, error: unknown) => markFailed(id, error),
  }) as unknown as SentEmails;

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
  const sent = sentRecord();
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
    const sent = sentRecord((_id, error) => void failed.push(error));
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

describe('the message on the wire', () => {
  it('goes out in one write after DATA, the bytes nodemailer streams unchanged, Bcc only in the envelope', async () => {
    const received: Array<{ raw: string; rcptTo: string[] }> = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ raw, rcptTo: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    /** A pooled SMTP transport whose connections count what the client writes after DATA. */
    const counted = () => {
      const writes: string[] = [];
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port,
        pool: true,
        getSocket: (_options: unknown, callback: (error: Error | null, socket: { connection: Socket }) => void) => {
          const socket = connect(port, '127.0.0.1', () => callback(null, { connection: socket }));
          const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
          let inData = false;
          socket.write = ((chunk: unknown, ...rest: unknown[]) => {
            const text = String(chunk);
            if (inData) writes.push(text);
            if (text.endsWith('DATA\r\n')) inData = true;
            if (/(^|\r\n)\.\r\n$/.test(text)) inData = false;
            return write(chunk, ...rest);
          }) as typeof socket.write;
        },
      });
      return { transport, writes };
    };
    const sent = sentRecord();
    const from = 'Referral Hub <hello@example.com>';
    // Lines that start with a dot (SMTP's end of data unless doubled), long lines, and text nodemailer encodes.
    const text = '.\n..two dots\n.end\r\n' + 'a long line '.repeat(40) + '\nZoë ✓ 😀\n.';
    const html = '<p>.</p>\n.<p>Zoë ✓</p>'.repeat(30);
    const envelope = {
      to: ['jo@globex.test'],
      cc: ['cc@globex.test'],
      bcc: ['audit@agency.test'],
      fromName: 'Zoë Ødegård via Referral Hub',
      replyTo: 'ana@agency.test',
    };
    const whole = counted();
    sendWhole(whole.transport);
    const streamed = counted();
    try {
      for (const { transport } of [whole, streamed]) {
        const sendOnce = emailSender({ sent, transport, from });
        const eventId = '11111111-2222-3333-4444-555555555555';
        expect(await sendOnce(eventId, 'referral-intro', envelope, { subject: 'Intro ✓ .', text, html })).toBe('sent');
      }
      expect(whole.writes).toHaveLength(2); // the message, then the end of data
      expect(streamed.writes.length).toBeGreaterThan(5);
      expect(whole.writes.join('')).toBe(whole.writes[0] + '.\r\n');
      expect(received).toHaveLength(2);
      const same = (raw: string) =>
        raw.replace(/-*_NmP-[0-9a-f]+-Part_\d+/g, 'BOUNDARY').replace(/^Date: .*$/m, 'Date: (sent at)');
      expect(same(received[0]!.raw)).toBe(same(received[1]!.raw));
      expect(received[0]!.raw).toMatch(/^Message-ID: <11111111-2222-3333-4444-555555555555@example\.com>$/m);
      expect(received[0]!.raw).toContain('..two dots');
      expect(received[0]!.raw).not.toMatch(/^Bcc:/im);
      expect(received[0]!.rcptTo.sort()).toEqual(['audit@agency.test', 'cc@globex.test', 'jo@globex.test']);
    } finally {
      whole.transport.close();
      streamed.transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
