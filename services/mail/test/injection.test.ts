import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { metrics } from '@app/kit';
import type { SentEmails } from '../src/repository.ts';
import { emailSender, type Envelope } from '../src/sender.ts';
import * as templates from '../src/templates.ts';
import type { RenderedEmail } from '../src/templates.ts';

// Output injection through every email: user-typed text in the HTML body (elements and attributes), the
// subject, the links, and the addresses nodemailer puts on the wire.

const PUBLIC_URL = 'https://app.example.com';
/** Markup, an attribute break-out, script and data links, CSS, and a header on a second line. */
const ATTACK = `"><img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)">x</a><a href='data:text/html,<b>'>y</a><style>*{x:url(//evil.test)}</style>\r\nBcc: evil@attacker.test`;
/** ATTACK as the HTML must show it: every character of markup escaped (line breaks aside). */
const ESCAPED_ATTACK =
  '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;&lt;a href=&#39;data:text/html,&lt;b&gt;&#39;&gt;y&lt;/a&gt;&lt;style&gt;*{x:url(//evil.test)}&lt;/style&gt;';

/** Every tag of an HTML document, as written. */
const tags = (html: string) => html.match(/<[^>]*>/g) ?? [];
/** Every link of an HTML document. */
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
/** The tags the templates themselves write; user text can add none. */
const TEMPLATE_TAG = /^<\/?(!doctype html|html|body|table|tr|td|th|h1|p|br|a)(\s|>)/;

function expectSafe(email: RenderedEmail, links: string[], escapedIn = ESCAPED_ATTACK) {
  expect(email.subject).not.toMatch(/[\r\n]/);
  for (const tag of tags(email.html)) {
    expect(tag).toMatch(TEMPLATE_TAG);
    expect(tag).not.toMatch(/\son\w+=|javascript:|data:|url\(/i);
  }
  for (const tag of tags(email.html).filter((t) => t.startsWith('<a ')))
    expect(tag).toMatch(/^<a href="https:\/\/app\.example\.com\/[^"]*"( style="[^"]*")?>$/);
  expect(new Set(hrefs(email.html))).toEqual(new Set(links));
  expect(email.html).not.toMatch(/<(img|script|style|svg|iframe)/i);
  expect(email.html).toContain(escapedIn);
  for (const link of links) expect(email.text).toContain(link.replace(/&amp;/g, '&'));
}

const base = { appName: 'Referral Hub', publicUrl: PUBLIC_URL };

describe('every email template, fed markup, attribute break-outs, script links and CSS', () => {
  it('verification: the name is escaped, the link is PUBLIC_URL with the token and id as query values', () => {
    const email = templates.verificationEmail({
      ...base,
      firstName: ATTACK,
      userId: '"><script>',
      token: 'a&b=c#"\'<',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const link = `${PUBLIC_URL}/verify-email?token=a%26b%3Dc%23%22%27%3C&userId=%22%3E%3Cscript%3E`;
    expectSafe(email, [link.replace(/&/g, '&amp;')]);
    expect(email.html).toContain(`<p>Hi ${ESCAPED_ATTACK}\r\nBcc: evil@attacker.test,</p>`);
  });

  it('email change: the name and the new address are escaped, the link is built from PUBLIC_URL', () => {
    const email = templates.emailChangeEmail({
      ...base,
      firstName: ATTACK,
      userId: 'u1',
      newEmail: '"><img src=x onerror=alert(1)>@x.test',
      token: 't1',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expectSafe(email, [`${PUBLIC_URL}/verify-email?token=t1&amp;userId=u1`]);
    expect(email.html).toContain('You asked to use &quot;&gt;&lt;img src=x onerror=alert(1)&gt;@x.test for your');
  });

  it('password changed, sign-up attempt and the three email-change notices: the name and addresses escaped', () => {
    const account = { ...base, supportEmail: 'support@example.com', firstName: ATTACK };
    expectSafe(templates.passwordChangedEmail(account), []);
    expectSafe(templates.signUpAttemptEmail(account), []);
    expectSafe(templates.emailChangeTakenNoticeEmail(account), []);
    const newEmail = `"><script>alert(1)</script>@x.test`;
    for (const email of [
      templates.emailChangeRequestedNoticeEmail({ ...account, newEmail }),
      templates.emailChangedNoticeEmail({ ...account, newEmail }),
    ]) {
      expectSafe(email, []);
      expect(email.html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.test');
    }
  });

  it('intro: the referrer’s subject and body as text; the body escaped in the HTML; the subject on one line', () => {
    const email = templates.introEmail(`Intro ${ATTACK}`, `Hi,\n\n${ATTACK}`);
    expectSafe(email, []);
    expect(email.subject).toBe(
      `Intro "><img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)">x</a><a href='data:text/html,<b>'>y</a><style>*{x:url(//evil.test)}</style> Bcc: evil@attacker.test`,
    );
    expect(email.text).toBe(`Hi,\n\n${ATTACK}`);
    expect(email.html).toContain(`<p>Hi,</p>\n<p>${ESCAPED_ATTACK}\r<br>Bcc: evil@attacker.test</p>`);
  });

  it('demo request: every field escaped, the subject on one line', () => {
    const email = templates.demoRequestEmail({
      ...base,
      requestId: 'r1',
      firstName: ATTACK,
      lastName: 'Hopper',
      email: 'grace@navy.example',
      phone: '"><svg onload=alert(1)>',
      website: 'javascript:alert(1)',
      referralSource: '<iframe src=//evil.test>',
    });
    expectSafe(email, []);
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.html).toContain('<td style="padding:4px 0">&quot;&gt;&lt;svg onload=alert(1)&gt;</td>');
    expect(email.html).toContain('<td style="padding:4px 0">javascript:alert(1)</td>');
    expect(email.html).toContain('<td style="padding:4px 0">&lt;iframe src=//evil.test&gt;</td>');
  });

  it('vendor invitation: the vendor, the inviter and the address escaped; the link to /vendor only', () => {
    const email = templates.vendorInvitationEmail({
      ...base,
      vendorName: ATTACK,
      email: 'jo@acme.test',
      invitedByName: ATTACK,
    });
    expectSafe(email, [`${PUBLIC_URL}/vendor`]);
    expect(email.html).toContain(`<h1 style="font-size:20px;margin:0 0 16px">You are invited to ${ESCAPED_ATTACK}`);
  });

  it('new lead: the vendor, client, product and referrer escaped; the link to the lead inbox only', () => {
    const email = templates.leadCreatedEmail({
      ...base,
      vendorName: ATTACK,
      referrerName: ATTACK,
      clientName: ATTACK,
      productName: ATTACK,
    });
    expectSafe(email, [`${PUBLIC_URL}/vendor/leads`]);
    expect(email.html).toContain(`<td style="padding:4px 0">${ESCAPED_ATTACK}\r\nBcc: evil@attacker.test</td>`);
  });

  it('lead accepted and declined: every name and the decline reason escaped; the link to Tee ups only', () => {
    for (const decision of ['accepted', 'declined'] as const) {
      const email = templates.leadDecisionEmail({
        ...base,
        decision,
        vendorName: ATTACK,
        referrerFirstName: ATTACK,
        clientName: ATTACK,
        productName: ATTACK,
        reason: `Not for us.\n${ATTACK}`,
      });
      expectSafe(email, [`${PUBLIC_URL}/dashboard`]);
    }
    const declined = templates.leadDecisionEmail({
      ...base,
      decision: 'declined',
      vendorName: 'Acme',
      referrerFirstName: 'Rita',
      clientName: 'Globex',
      productName: 'CRM',
      reason: `Not for us.\n${ATTACK}`,
    });
    expect(declined.html).toContain(
      `<p>Their reason:<br>Not for us.<br>${ESCAPED_ATTACK}<br>Bcc: evil@attacker.test</p>`,
    );
  });

  it('milestone confirmation request: the names and the referrer’s message escaped; the lead inbox link only', () => {
    const email = templates.confirmationRequestedEmail({
      ...base,
      vendorName: ATTACK,
      referrerName: ATTACK,
      clientName: ATTACK,
      productName: ATTACK,
      milestone: 'Closed-Won',
      message: `Please.\n${ATTACK}`,
    });
    expectSafe(email, [`${PUBLIC_URL}/vendor/leads`]);
    expect(email.html).toContain(`<p>Their message:<br>Please.<br>${ESCAPED_ATTACK}<br>Bcc: evil@attacker.test</p>`);
  });

  it('commission earned and payout: the names, reference and method escaped; the Referral Impact link only', () => {
    expectSafe(
      templates.commissionEarnedEmail({
        ...base,
        referrerFirstName: ATTACK,
        vendorName: ATTACK,
        clientName: ATTACK,
        milestone: 'Closed-Won',
        amount: '$1.00',
      }),
      [`${PUBLIC_URL}/referral-impact`],
    );
    const payout = templates.payoutEmail({
      ...base,
      firstName: ATTACK,
      reference: ATTACK,
      method: 'Bank transfer',
      paidOn: '2026-01-02',
      amount: '$1.00',
      commissions: 1,
    });
    expectSafe(payout, [`${PUBLIC_URL}/referral-impact`]);
    expect(payout.subject).toBe(`Referral Hub paid you $1.00 (${ATTACK.replace('\r\n', ' ')})`);
  });
});

/** The sender over nodemailer's stream transport: the message exactly as nodemailer writes it on the wire. */
function wire() {
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const sent: Array<{ raw: string; envelope: { from: string; to: string[] } }> = [];
  const transport = {
    sendMail: async (options: SendMailOptions) => {
      const info = await stream.sendMail(options);
      sent.push({ raw: (info.message as Buffer).toString('utf8'), envelope: info.envelope as never });
      return info;
    },
  } as unknown as Transporter;
  const records = {
    claim: async () => 'claim-id',
    isSent: async () => false,
    markSent: async () => undefined,
    markFailed: async () => undefined,
  } as unknown as SentEmails;
  const sendOnce = emailSender({ sent: records, transport, from: 'Referral Hub <hello@example.com>' });
  const send = (envelope: Envelope, subject = 'Intro') =>
    sendOnce('11111111-2222-3333-4444-555555555555', 'referral-intro', envelope, {
      subject,
      text: 'Hi',
      html: '<p>Hi</p>',
    });
  return { send, sent };
}

describe('the addresses of an email on the wire', () => {
  it('a subject cannot add a header: nodemailer writes it on one line', async () => {
    const { send, sent } = wire();
    const { subject } = templates.introEmail('Hello\r\nBcc: evil@attacker.test\nX-Evil: 1', 'Hi');
    await send({ to: ['jo@globex.test'] }, subject);
    const head = sent[0]!.raw.split('\n\n')[0]!;
    expect(head).toMatch(/^Subject: Hello Bcc: evil@attacker\.test X-Evil: 1$/m);
    expect(head).not.toMatch(/^(Bcc|X-Evil):/im);
    expect(sent[0]!.envelope.to).toEqual(['jo@globex.test']);
  });

  it('plain addresses go as they are, each one recipient', async () => {
    const { send, sent } = wire();
    const outcome = await send({
      to: ['jo@globex.test', "o'neil+intro@globex.test"],
      cc: ['leads@acme.test'],
      bcc: ['me@agency.test'],
      replyTo: 'ana@agency.test',
    });
    expect(outcome).toBe('sent');
    const head = sent[0]!.raw.split('\n\n')[0]!;
    expect(head).toMatch(/^To: jo@globex\.test, o'neil\+intro@globex\.test$/m);
    expect(head).toMatch(/^Cc: leads@acme\.test$/m);
    expect(head).toMatch(/^Reply-To: ana@agency\.test$/m);
    expect(sent[0]!.envelope.to).toEqual([
      'jo@globex.test',
      "o'neil+intro@globex.test",
      'leads@acme.test',
      'me@agency.test',
    ]);
  });

  // Each has the spec's shape (text, at sign, text, dot, text, no spaces), yet a mailer reads another address
  // in it: `a@b.c<root>` is delivered to the relay's local "root", shown as "a@b.c".
  it.each([
    ['an address in angle brackets after one', { to: ['jo@globex.test<root>'] }],
    ['a display name before an address', { to: ['jo@globex.test'], cc: ['boss<evil@attacker.test'] }],
    ['a group of local mailboxes', { to: ['jo@globex.test'], bcc: ['staff:root,;me@agency.test'] }],
    ['a semicolon list', { to: ['root;jo@globex.test'] }],
    ['a comment', { to: ['jo@globex.test(evil'] }],
    ['a Reply-To pointing elsewhere', { to: ['jo@globex.test'], replyTo: 'ana@agency.test<root>' }],
    ['a line break', { to: ['jo@globex.test\r\nBcc: evil@attacker.test'] }],
  ])('an email with %s is not sent', async (_case, envelope: Envelope) => {
    const { send, sent } = wire();
    const refused = async () =>
      (await metrics.emailsRefused.get()).values.find((value) => value.labels.kind === 'referral-intro')?.value ?? 0;
    const before = await refused();
    expect(await send(envelope)).toBe('refused');
    expect(sent).toEqual([]);
    expect(await refused()).toBe(before + 1);
  });
});
