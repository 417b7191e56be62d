import { escapeHtml } from '@app/kit';
import type { CaughtMessage } from './catcher.ts';

/** Text with its http(s) links made clickable, everything else escaped. */
const linkify = (text: string) =>
  text
    .split(/(https?:\/\/[^\s<>"]+)/g)
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');

/** The development inbox page: the caught emails as given (newest first), every text escaped. */
export function inboxPage(messages: CaughtMessage[]): string {
  const items = messages
    .map(
      (m) => `<article style="border:1px solid #e2e8f0;border-radius:8px;padding:16px;margin:12px 0;background:#fff">
  <h2 style="font-size:16px;margin:0 0 4px">${escapeHtml(m.subject)}</h2>
  <p style="margin:0 0 8px;color:#475569;font-size:13px;overflow-wrap:anywhere">To ${escapeHtml(m.to.join(', '))} · from ${escapeHtml(m.from)} · ${escapeHtml(m.receivedAt)}</p>
  <pre style="white-space:pre-wrap;overflow-wrap:anywhere;font-family:inherit;margin:0">${linkify(m.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Development inbox</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;max-width:760px;margin:0 auto;padding:24px">
<h1 style="font-size:22px">Development inbox</h1>
<p style="color:#475569">Emails the app sent while no SMTP_URL is configured. Reload to see new ones.</p>
${items || '<p>No emails yet.</p>'}
</body></html>`;
}
