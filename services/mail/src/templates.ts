import { escapeHtml } from '@app/kit';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The link is built from PUBLIC_URL only; nothing from the request that caused it. */
export function verificationEmail(input: {
  appName: string;
  publicUrl: string;
  firstName: string;
  userId: string;
  token: string;
  expiresAt: Date;
}): RenderedEmail {
  const link = new URL('/verify-email', input.publicUrl);
  link.searchParams.set('token', input.token);
  link.searchParams.set('userId', input.userId);
  const hours = Math.max(1, Math.round((input.expiresAt.getTime() - Date.now()) / 3600_000));
  const name = input.firstName.trim() || 'there';
  const subject = `Verify your email for ${input.appName}`;
  const text = [
    `Hi ${name},`,
    '',
    `Please confirm your email address to finish setting up your ${input.appName} account:`,
    '',
    link.href,
    '',
    `This link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<table role="presentation" style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">Verify your email</h1>
<p>Hi ${escapeHtml(name)},</p>
<p>Please confirm your email address to finish setting up your ${escapeHtml(input.appName)} account.</p>
<p style="margin:24px 0"><a href="${escapeHtml(link.href)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">Verify email</a></p>
<p style="font-size:13px;color:#475569">Or open this link: <a href="${escapeHtml(link.href)}">${escapeHtml(link.href)}</a></p>
<p style="font-size:13px;color:#475569">This link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.</p>
</td></tr></table></body></html>`;
  return { subject, text, html };
}

/** The referrer's intro email as they wrote it: their text, paragraphs kept, nothing added but markup. */
export function introEmail(subject: string, body: string): RenderedEmail {
  const paragraphs = body
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5">
${paragraphs}
</body></html>`;
  // The subject is the referrer's text: one line, whatever they typed.
  return { subject: oneLine(subject), text: body, html };
}

/**
 * The frame of the account emails: a title, blocks (already escaped HTML: paragraphs, or a table) and an
 * optional button.
 */
function accountHtml(title: string, paragraphs: string[], button?: { label: string; href: string }): string {
  const action = button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(button.href)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(button.label)}</a></p>
<p style="font-size:13px;color:#475569">Or open this link: <a href="${escapeHtml(button.href)}">${escapeHtml(button.href)}</a></p>`
    : '';
  return `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<table role="presentation" style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => (p.startsWith('<table') ? p : `<p>${p}</p>`)).join('\n')}
${action}
</td></tr></table></body></html>`;
}

/**
 * An account notice in plain sentences: "Hi {first name}," then `lines`, then `closing` after a blank line, as
 * text and as HTML (every line escaped).
 */
function accountNotice(content: {
  subject: string;
  title: string;
  firstName: string;
  lines: string[];
  closing?: string;
}): RenderedEmail {
  const { subject, title, lines, closing } = content;
  const name = content.firstName.trim() || 'there';
  const text = [`Hi ${name},`, '', ...lines, ...(closing ? ['', closing] : [])].join('\n');
  const html = accountHtml(title, [
    `Hi ${escapeHtml(name)},`,
    ...[...lines, ...(closing ? [closing] : [])].map(escapeHtml),
  ]);
  return { subject, text, html };
}

/** The email-change link: the same /verify-email link, sent to the NEW address; built from PUBLIC_URL only. */
export function emailChangeEmail(input: {
  appName: string;
  publicUrl: string;
  firstName: string;
  userId: string;
  newEmail: string;
  token: string;
  expiresAt: Date;
}): RenderedEmail {
  const link = new URL('/verify-email', input.publicUrl);
  link.searchParams.set('token', input.token);
  link.searchParams.set('userId', input.userId);
  const hours = Math.max(1, Math.round((input.expiresAt.getTime() - Date.now()) / 3600_000));
  const name = input.firstName.trim() || 'there';
  const subject = 'Confirm your new email address';
  const intro = `You asked to use ${input.newEmail} for your ${input.appName} account. Open this link to confirm it; your email changes only then:`;
  const note = `This link works once and expires in ${hours} hours. If you did not ask for this, ignore this email: nothing changes.`;
  const text = [`Hi ${name},`, '', intro, '', link.href, '', note].join('\n');
  const html = accountHtml('Confirm your new email address', [`Hi ${escapeHtml(name)},`, escapeHtml(intro)], {
    label: 'Confirm new email',
    href: link.href,
  }).replace('</td></tr>', `<p style="font-size:13px;color:#475569">${escapeHtml(note)}</p>\n</td></tr>`);
  return { subject, text, html };
}

/** The notice after a password change, to the account's address. */
export function passwordChangedEmail(input: {
  appName: string;
  publicUrl: string;
  supportEmail: string;
  firstName: string;
}): RenderedEmail {
  const login = new URL('/login', input.publicUrl).href;
  const lines = [
    `The password of your ${input.appName} account was just changed, and your other sessions were signed out.`,
    `If it was not you, contact support at ${input.supportEmail} right away; if you can still sign in (${login}), change your password again from the Account page.`,
  ];
  return accountNotice({
    subject: `Your ${input.appName} password was changed`,
    title: 'Your password was changed',
    firstName: input.firstName,
    lines,
    closing: 'If it was you, there is nothing to do.',
  });
}

export interface DemoRequestDetails {
  requestId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  website: string;
  referralSource: string | null;
}

/** The sales team's notice of a demo request: every field, the requester's text escaped in the HTML. */
export function demoRequestEmail(input: DemoRequestDetails & { appName: string }): RenderedEmail {
  const fullName = `${input.firstName} ${input.lastName}`.trim();
  // One line: the subject carries user text, so no line breaks from it.
  const subject = `Demo request: ${fullName} (${input.website})`.replace(/[\r\n]+/g, ' ');
  const rows: Array<[string, string]> = [
    ['Name', fullName],
    ['Email', input.email],
    ['Phone', input.phone],
    ['Company website', input.website],
    ['Heard about us', input.referralSource ?? 'Not given'],
    ['Request id', input.requestId],
  ];
  const text = [
    `New demo request on ${input.appName}:`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    'Reply to this email to answer the requester.',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:18px">New demo request</h1>
<table role="presentation" style="border-collapse:collapse">
${rows.map(([label, value]) => `<tr><th style="text-align:left;padding:4px 12px 4px 0;color:#475569">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
<p style="font-size:13px;color:#475569">Reply to this email to answer the requester.</p>
</body></html>`;
  return { subject, text, html };
}

/** A subject built from people's text: on one line, whatever they typed. */
const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

/** Text typed by someone else (a decline reason), as HTML: escaped, its line breaks kept. */
const multiline = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

/** An invitation to a vendor workspace, to the invited address; the link opens the workspace screen. */
export function vendorInvitationEmail(input: {
  appName: string;
  publicUrl: string;
  vendorName: string;
  email: string;
  invitedByName: string;
}): RenderedEmail {
  const link = new URL('/vendor', input.publicUrl).href;
  const inviter = input.invitedByName.trim() || 'A member';
  const subject = oneLine(`${inviter} invited you to ${input.vendorName} on ${input.appName}`);
  const lines = [
    `${inviter} invited you to join the ${input.vendorName} workspace on ${input.appName}, where its team manages the vendor's referral program, lead criteria, bounties and the leads referred to it.`,
    `To accept, sign in (or sign up) with this address, ${input.email}, verify it, and open your workspace:`,
  ];
  const note = 'If you did not expect this invitation, you can ignore this email.';
  const text = ['Hi,', '', ...lines, '', link, '', note].join('\n');
  const html = accountHtml(
    `You are invited to ${input.vendorName}`,
    ['Hi,', ...lines.map(escapeHtml), escapeHtml(note)],
    {
      label: 'Open the workspace',
      href: link,
    },
  );
  return { subject, text, html };
}

/** What an email to a vendor's team about one lead says of it (a new lead, a withdrawn one). */
interface TeamLeadEmail {
  appName: string;
  publicUrl: string;
  vendorName: string;
  referrerName: string;
  clientName: string;
  productName: string;
}

/** The lead's facts as rows: client, product, who referred it. */
const teamLeadRows = (input: TeamLeadEmail) =>
  rowsOf([
    ['Client', input.clientName],
    ['Product', input.productName],
    ['Referred by', input.referrerName],
  ]);

/** A new lead, to the vendor's lead inbox and members: who referred which client for what. */
export function leadCreatedEmail(input: TeamLeadEmail): RenderedEmail {
  const link = new URL('/vendor/leads', input.publicUrl).href;
  const subject = oneLine(`New lead for ${input.vendorName}: ${input.clientName}`);
  const intro = `${input.referrerName} referred a new lead to ${input.vendorName} on ${input.appName}.`;
  const rows = teamLeadRows(input);
  const action = 'Review it, then accept or decline it, in your lead inbox:';
  const text = ['Hi,', '', intro, '', ...rows.text, '', action, '', link].join('\n');
  const html = accountHtml(
    `New lead for ${input.vendorName}`,
    ['Hi,', escapeHtml(intro), rows.html, escapeHtml(action)],
    {
      label: 'Open the lead inbox',
      href: link,
    },
  );
  return { subject, text, html };
}

/** The vendor's answer to a referral, to the referrer; a decline carries the vendor's reason. */
export function leadDecisionEmail(input: {
  appName: string;
  publicUrl: string;
  decision: 'accepted' | 'declined';
  vendorName: string;
  referrerFirstName: string;
  clientName: string;
  productName: string;
  reason?: string;
}): RenderedEmail {
  const link = new URL('/dashboard', input.publicUrl).href;
  const name = input.referrerFirstName.trim() || 'there';
  const subject = oneLine(`${input.vendorName} ${input.decision} your referral of ${input.clientName}`);
  const what = `${input.vendorName} ${input.decision} your referral of ${input.clientName} for ${input.productName}.`;
  const follow =
    input.decision === 'accepted'
      ? 'Follow it, and what it earns you, in your Tee ups:'
      : 'The referral is now marked Declined in your Tee ups:';
  const reason = input.reason?.trim() ?? '';
  const text = [`Hi ${name},`, '', what, ...(reason ? ['', 'Their reason:', reason] : []), '', follow, '', link].join(
    '\n',
  );
  const paragraphs = [
    `Hi ${escapeHtml(name)},`,
    escapeHtml(what),
    ...(reason ? [`Their reason:<br>${multiline(reason)}`] : []),
    escapeHtml(follow),
  ];
  const title = input.decision === 'accepted' ? 'Your referral was accepted' : 'Your referral was declined';
  const html = accountHtml(title, paragraphs, { label: 'Open Tee ups', href: link });
  return { subject, text, html };
}

/** Label/value rows, as text lines and as an HTML table. */
function rowsOf(rows: Array<[string, string]>) {
  return {
    text: rows.map(([label, value]) => `${label}: ${value}`),
    html: `<table role="presentation" style="border-collapse:collapse">
${rows.map(([label, value]) => `<tr><th style="text-align:left;padding:4px 12px 4px 0;color:#475569">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`).join('\n')}
</table>`,
  };
}

/**
 * The referrer asks the vendor to confirm a milestone, to the lead inbox and members: "{referrer} asks you
 * to confirm {milestone} for {client}", the referrer's message if any, and the lead inbox link.
 */
export function confirmationRequestedEmail(input: {
  appName: string;
  publicUrl: string;
  vendorName: string;
  referrerName: string;
  clientName: string;
  productName: string;
  /** milestoneLabel(milestone). */
  milestone: string;
  message: string;
}): RenderedEmail {
  const link = new URL('/vendor/leads', input.publicUrl).href;
  const subject = oneLine(`${input.referrerName} asks you to confirm ${input.milestone} for ${input.clientName}`);
  const intro = `${input.referrerName} asks ${input.vendorName} to confirm ${input.milestone} for ${input.clientName} on ${input.appName}.`;
  const rows = rowsOf([
    ['Client', input.clientName],
    ['Product', input.productName],
    ['Milestone', input.milestone],
    ['Referred by', input.referrerName],
  ]);
  const message = input.message.trim();
  const action =
    'Only your team can confirm it: the commission is earned when you do. Confirm it, or tell the referrer where it stands, in your lead inbox:';
  const text = [
    'Hi,',
    '',
    intro,
    '',
    ...rows.text,
    ...(message ? ['', 'Their message:', message] : []),
    '',
    action,
    '',
    link,
  ].join('\n');
  const html = accountHtml(
    'A milestone to confirm',
    [
      'Hi,',
      escapeHtml(intro),
      rows.html,
      ...(message ? [`Their message:<br>${multiline(message)}`] : []),
      escapeHtml(action),
    ],
    { label: 'Open the lead inbox', href: link },
  );
  return { subject, text, html };
}

/**
 * The referrer withdrew a lead, to the lead inbox and members: "{referrer} withdrew the referral of {client}",
 * what that leaves to do (nothing), and the lead inbox link.
 */
export function leadWithdrawnEmail(input: TeamLeadEmail): RenderedEmail {
  const link = new URL('/vendor/leads', input.publicUrl).href;
  const subject = oneLine(`${input.referrerName} withdrew the referral of ${input.clientName}`);
  const intro = `${input.referrerName} withdrew their referral of ${input.clientName} to ${input.vendorName} on ${input.appName}.`;
  const rows = teamLeadRows(input);
  const after =
    'It stays in your lead inbox as Withdrawn, with nothing to accept, decline or confirm. If you were already talking to them, you may want to let the referrer know where it stood:';
  const text = ['Hi,', '', intro, '', ...rows.text, '', after, '', link].join('\n');
  const html = accountHtml('A referral was withdrawn', ['Hi,', escapeHtml(intro), rows.html, escapeHtml(after)], {
    label: 'Open the lead inbox',
    href: link,
  });
  return { subject, text, html };
}

/** A deal the vendor or an administrator reversed: the referrer hears what they lost and why. */
export function commissionsReversedEmail(input: {
  appName: string;
  publicUrl: string;
  referrerFirstName: string;
  vendorName: string;
  clientName: string;
  reversedBy: 'vendor' | 'admin';
  reason: string;
  /** milestoneLabel of each milestone reversed, in order. */
  milestones: string[];
  /** formatCents(referrerCents, currency). */
  amount: string;
}): RenderedEmail {
  const link = new URL('/referral-impact', input.publicUrl).href;
  const name = input.referrerFirstName.trim() || 'there';
  const client = input.clientName.trim() || 'your client';
  const vendor = input.vendorName.trim() || 'The vendor';
  const who = input.reversedBy === 'admin' ? `An administrator of ${input.appName}` : vendor;
  const subject = oneLine(`Your commission for ${client} was reversed`);
  const what = `${who} reversed the deal of your referral of ${client}: ${input.amount} not paid out yet is no longer yours.`;
  const rows = rowsOf([
    ['Client', client],
    ['Vendor', vendor],
    ['Milestones', input.milestones.join(', ')],
    ['Reversed', input.amount],
    ['Reason', input.reason],
  ]);
  const paid = 'Commissions already paid out stay paid. If you think this is a mistake, reply to the vendor.';
  const follow = 'Your earnings are in your Referral Impact:';
  const text = [`Hi ${name},`, '', what, '', ...rows.text, '', paid, '', follow, '', link].join('\n');
  const html = accountHtml(
    'Commission reversed',
    [`Hi ${escapeHtml(name)},`, escapeHtml(what), rows.html, escapeHtml(paid), escapeHtml(follow)],
    { label: 'Open Referral Impact', href: link },
  );
  return { subject, text, html };
}

/** A commission earned, to the referrer: their share (formatCents), for which milestone of which referral. */
export function commissionEarnedEmail(input: {
  appName: string;
  publicUrl: string;
  referrerFirstName: string;
  vendorName: string;
  clientName: string;
  /** milestoneLabel(milestone). */
  milestone: string;
  /** formatCents(referrerCents, currency). */
  amount: string;
  /** An administrator recorded the milestone on the vendor's behalf (else a member of the vendor confirmed it). */
  confirmedBy?: 'vendor' | 'admin';
}): RenderedEmail {
  const link = new URL('/referral-impact', input.publicUrl).href;
  const name = input.referrerFirstName.trim() || 'there';
  const subject = oneLine(`You earned ${input.amount} for your referral of ${input.clientName}`);
  const who =
    input.confirmedBy === 'admin'
      ? `A ${input.appName} administrator recorded ${input.milestone} on behalf of ${input.vendorName}`
      : `${input.vendorName} confirmed ${input.milestone}`;
  const what = `${who} for your referral of ${input.clientName}: you earned ${input.amount}.`;
  const escrow = `It is held in escrow until ${input.appName} pays it out; you will get an email then.`;
  const rows = rowsOf([
    ['Client', input.clientName],
    ['Vendor', input.vendorName],
    ['Milestone', input.milestone],
    ['Your share', input.amount],
  ]);
  const follow = 'Your earnings are in your Referral Impact:';
  const text = [`Hi ${name},`, '', what, '', ...rows.text, '', escrow, '', follow, '', link].join('\n');
  const html = accountHtml(
    `You earned ${input.amount}`,
    [`Hi ${escapeHtml(name)},`, escapeHtml(what), rows.html, escapeHtml(escrow), escapeHtml(follow)],
    { label: 'Open Referral Impact', href: link },
  );
  return { subject, text, html };
}

/** A payout, to one referrer paid in it: the reference, the date, the method and their total. */
export function payoutEmail(input: {
  appName: string;
  publicUrl: string;
  firstName: string;
  reference: string;
  method: string;
  /** YYYY-MM-DD. */
  paidOn: string;
  /** formatCents(totalCents, currency). */
  amount: string;
  commissions: number;
}): RenderedEmail {
  const link = new URL('/referral-impact', input.publicUrl).href;
  const name = input.firstName.trim() || 'there';
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${input.paidOn}T00:00:00Z`),
  );
  const count = `${input.commissions} commission${input.commissions === 1 ? '' : 's'}`;
  const subject = oneLine(`${input.appName} paid you ${input.amount} (${input.reference})`);
  const what = `${input.appName} paid you ${input.amount} for ${count}.`;
  const rows = rowsOf([
    ['Amount', input.amount],
    ['Paid on', date],
    ['Reference', input.reference],
    ['Method', input.method],
    ['Commissions', String(input.commissions)],
  ]);
  const follow = 'Every commission and payout is in your Referral Impact:';
  const text = [`Hi ${name},`, '', what, '', ...rows.text, '', follow, '', link].join('\n');
  const html = accountHtml(
    'You were paid',
    [`Hi ${escapeHtml(name)},`, escapeHtml(what), rows.html, escapeHtml(follow)],
    { label: 'Open Referral Impact', href: link },
  );
  return { subject, text, html };
}

/** To the owner of an address someone tried to register again: no account was created, nothing changed. */
export function signUpAttemptEmail(input: {
  appName: string;
  publicUrl: string;
  supportEmail: string;
  firstName: string;
}): RenderedEmail {
  const login = new URL('/login', input.publicUrl).href;
  const resend = new URL('/resend-verification', input.publicUrl).href;
  const lines = [
    `Someone just tried to create a ${input.appName} account with this email address. You already have an account, so nothing was created and nothing changed.`,
    `If it was you, log in instead: ${login} (if you never verified your address, request a new link at ${resend}).`,
    `If it was not you, you can ignore this email; your password was not used. Questions: ${input.supportEmail}.`,
  ];
  return accountNotice({
    subject: `Someone tried to create a ${input.appName} account with your email`,
    title: 'Someone tried to create an account with your email',
    firstName: input.firstName,
    lines,
  });
}

/**
 * To the owner of an address that someone signed in to another account asked to move that account to: the
 * address stays theirs, nothing changed (the request was answered as for a free address, so it reveals nothing).
 */
export function emailChangeTakenNoticeEmail(input: {
  appName: string;
  publicUrl: string;
  supportEmail: string;
  firstName: string;
}): RenderedEmail {
  const login = new URL('/login', input.publicUrl).href;
  const lines = [
    `Someone signed in to another ${input.appName} account just asked to change its email address to this one. This address already belongs to your account, so nothing changed and no account can take it.`,
    `If it was you (with a second account), log in with this address instead: ${login}.`,
    `If it was not you, you can ignore this email; your password was not used. Questions: ${input.supportEmail}.`,
  ];
  return accountNotice({
    subject: `Someone asked to move another ${input.appName} account to your email`,
    title: 'Someone asked to move another account to your email',
    firstName: input.firstName,
    lines,
  });
}

/** To the CURRENT address when a change to another one is requested (the link went to the new one). */
export function emailChangeRequestedNoticeEmail(input: {
  appName: string;
  supportEmail: string;
  firstName: string;
  newEmail: string;
}): RenderedEmail {
  const lines = [
    `Someone signed in to your ${input.appName} account asked to change its email address to ${input.newEmail}. The change happens only when the link sent to that address is opened.`,
    `If it was not you, change your password right away from the Account page (this cancels the change and signs out your other sessions), and contact support at ${input.supportEmail}.`,
  ];
  return accountNotice({
    subject: `A change of your ${input.appName} email address was requested`,
    title: 'A change of your email address was requested',
    firstName: input.firstName,
    lines,
    closing: 'If it was you, there is nothing to do.',
  });
}

/** To the OLD address once the change to the new one was confirmed. */
export function emailChangedNoticeEmail(input: {
  appName: string;
  supportEmail: string;
  firstName: string;
  newEmail: string;
}): RenderedEmail {
  const lines = [
    `The email address of your ${input.appName} account is now ${input.newEmail}. This address will no longer receive its emails or sign in.`,
    `If it was not you, contact support at ${input.supportEmail} right away.`,
  ];
  return accountNotice({
    subject: `Your ${input.appName} email address was changed`,
    title: 'Your email address was changed',
    firstName: input.firstName,
    lines,
    closing: 'If it was you, there is nothing to do.',
  });
}
