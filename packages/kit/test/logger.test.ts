import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createServiceApp, loggerOptions } from '../src/index.ts';

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
