import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createServiceApp, loggerOptions, redactUrl } from '../src/index.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe('logging', () => {
  it('redacts passwords, tokens and secrets wherever they ride', () => {
    const { lines, stream } = capture();
    const log = pino(loggerOptions('test', 'info'), stream);
    log.info(
      { body: { email: 'a@b.co', password: 'hunter2' }, token: 'tok-1', payload: { sealedToken: 'sealed-1' } },
      'hello',
    );
    const line = lines.join('');
    expect(line).toContain('a@b.co');
    for (const secret of ['hunter2', 'tok-1', 'sealed-1']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('never writes cookies or identity headers from request logs', async () => {
    const { lines, stream } = capture();
    const app = createServiceApp({
      name: 'test',
      internalSecret: 'x'.repeat(32),
      logger: { ...loggerOptions('test', 'info'), stream },
    });
    app.get('/ping', async () => ({ ok: true }));
    await app.inject({
      method: 'GET',
      url: '/ping',
      headers: { cookie: 'sid=secret-session', 'x-identity': 'secret-identity', 'x-request-id': 'rid-7' },
    });
    await app.close();
    const logs = lines.join('');
    expect(logs).toContain('rid-7');
    expect(logs).not.toContain('secret-session');
    expect(logs).not.toContain('secret-identity');
  });
});

describe('request log lines', () => {
  it('never show a query string or a token-bearing path segment', async () => {
    const { lines, stream } = capture();
    const app = createServiceApp({
      name: 'test',
      internalSecret: 'x'.repeat(32),
      logger: { ...loggerOptions('test', 'info'), stream },
    });
    app.get('/api/verify-email', async () => ({ ok: true }));
    app.post('/api/vendor-invitations/:invitationId/accept', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/api/verify-email?token=tok-secret-123&userId=u-1' });
    await app.inject({
      method: 'POST',
      url: '/api/vendor-invitations/inv-secret-456/accept',
      headers: { 'content-type': 'application/json' },
      payload: { password: 'body-secret-789' },
    });
    await app.close();
    const logs = lines.join('');
    expect(logs).toContain('"url":"/api/verify-email?[redacted]"');
    expect(logs).toContain('"url":"/api/vendor-invitations/[redacted]/accept"');
    for (const secret of ['tok-secret-123', 'u-1', 'inv-secret-456', 'body-secret-789']) {
      expect(logs).not.toContain(secret);
    }
  });

  it('redactUrl keeps the path and drops every query value', () => {
    expect(redactUrl('/api/referrals?search=acme&page=2')).toBe('/api/referrals?[redacted]');
    expect(redactUrl('/api/referrals/7')).toBe('/api/referrals/7');
    expect(redactUrl('/api/confirm-email-change?token=abc')).toBe('/api/confirm-email-change?[redacted]');
  });
});
