/**
 * The service refuses an over-limit document itself, whatever reached it (chunked or with a length,
 * past the gateway or not): a 413 and nothing stored, never a truncated file.
 */
import { request } from 'node:http';
import { PROGRAM_DOCUMENT_MAX_BYTES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, snapshot, startPrograms, testUser, type TestContext } from './helpers.ts';

const admin = testUser(true);
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await startPrograms();
  base = await ctx.service.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => ctx?.close());

/** Posts the body over a real socket, in 64 KB chunks, chunked (no content-length) unless `length`. */
function post(body: Buffer, headers: Record<string, string>, length: boolean) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${base}/api/analyze-referral-program`, {
      method: 'POST',
      headers: { ...admin.headers, ...headers, ...(length ? { 'content-length': String(body.length) } : {}) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    void (async () => {
      for (let offset = 0; offset < body.length && !req.destroyed; offset += 64 * 1024) {
        req.write(body.subarray(offset, offset + 64 * 1024));
        await new Promise((r) => setImmediate(r));
      }
      if (!req.destroyed) req.end();
    })();
  });
}

describe('document size at the programs service', () => {
  for (const [name, size] of [
    ['one byte over', PROGRAM_DOCUMENT_MAX_BYTES + 1],
    ['a chunk over', PROGRAM_DOCUMENT_MAX_BYTES + 64 * 1024],
    ['12 MB', 12 * 1024 * 1024],
  ] as const) {
    for (const length of [false, true]) {
      it(`refuses a document ${name} (${length ? 'with a length' : 'chunked'}) with 413 and stores nothing`, async () => {
        const before = await snapshot(ctx.sql);
        const keys = await ctx.objectKeys();
        const bytes = Buffer.alloc(size, 'a');
        Buffer.from('Big Program\n\n').copy(bytes);
        const body = multipart({ name: 'big.txt', bytes, type: 'text/plain' });
        const response = await post(body.payload, body.headers, length);
        expect(response.status).toBe(413);
        expect(JSON.parse(response.body)).toMatchObject({ code: 'DOCUMENT_TOO_LARGE' });
        expect(await snapshot(ctx.sql)).toEqual(before);
        expect(await ctx.objectKeys()).toEqual(keys);
      });
    }
  }
});
