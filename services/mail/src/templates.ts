export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The link is built from PUBLIC_URL only; nothing from the request that caused it. */
export function verificationEmail(input: { appName: string; publicUrl: string; firstName: string; userId: string; token: string; expiresAt: Date }): RenderedEmail {
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
  return { subject, text: body, html };
}
