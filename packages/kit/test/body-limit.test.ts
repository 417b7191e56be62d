/**
 * A service refuses a body over its limit, announced or chunked, with 413 `{ message, code }`: the
 * handler never sees a truncated body.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../src/index.ts';

const app = createServiceApp({ name: 'limits', internalSecret: 'x'.repeat(32), logger: false, bodyLimit: 1000 });
const seen: number[] = [];
let base: string;

beforeAll(async () => {
  app.post('/echo', async (req) => {
    seen.push(JSON.stringify(req.body).length);
    return { ok: true };
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

/** A JSON body of `size` bytes, in 100-byte chunks, chunked unless `length`. */
const post = (size: number, length: boolean) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const text = JSON.stringify({ a: 'x'.repeat(size - 8) });
    const req = request(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(length ? { 'content-length': String(text.length) } : {}) },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    for (let i = 0; i < text.length; i += 100) req.write(text.slice(i, i + 100));
    req.end();
  });

describe('service body limit', () => {
  it('refuses an over-limit body, chunked or announced, with 413 and never runs the handler', async () => {
    for (const length of [false, true]) {
      const response = await post(5000, length);
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toEqual({ message: 'Request body is too large', code: 'BODY_TOO_LARGE' });
    }
    expect(seen).toEqual([]);
    expect((await post(900, false)).status).toBe(200);
    expect(seen).toEqual([900]);
  });
});
