import { describe, expect, it } from 'vitest';
import { acceptedEncoding, compressible, MIN_BYTES, varyWithEncoding } from '../src/compression.ts';

describe('answer compression (gateway/src/compression.ts)', () => {
  it('picks brotli, else gzip, from what the client accepts', () => {
    const cases: Array<[string | string[] | undefined, string | null]> = [
      [undefined, null],
      ['', null],
      ['gzip, deflate, br, zstd', 'br'], // Chromium
      ['gzip, deflate', 'gzip'], // Node's fetch
      ['BR', 'br'],
      ['gzip;q=1.0, br;q=0', 'gzip'],
      ['br;q=0, gzip;q=0', null],
      ['br; q=0.001', 'br'],
      ['identity', null],
      ['deflate, zstd', null],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['*, br;q=0', 'gzip'],
      [['gzip', 'br'], 'br'],
      [' , gzip ,', 'gzip'],
    ];
    for (const [header, expected] of cases) expect(acceptedEncoding(header), JSON.stringify(header)).toBe(expected);
  });

  it('compresses JSON and CSV answers with a body worth it, nothing else', () => {
    const json = {
      status: 200,
      contentType: 'application/json',
      encoded: false,
      cacheControl: 'no-store',
      length: 48_000,
    };
    expect(compressible(json)).toBe(true);
    expect(compressible({ ...json, contentType: 'application/json; charset=utf-8', length: -1 })).toBe(true);
    expect(compressible({ ...json, contentType: 'application/problem+json' })).toBe(true);
    expect(compressible({ ...json, status: 201, contentType: 'text/csv', length: MIN_BYTES })).toBe(true);
    expect(compressible({ ...json, cacheControl: undefined })).toBe(true);
    expect(compressible({ ...json, length: MIN_BYTES - 1 })).toBe(false);
    expect(compressible({ ...json, encoded: true })).toBe(false);
    expect(compressible({ ...json, cacheControl: 'no-store, No-Transform' })).toBe(false);
    expect(compressible({ ...json, cacheControl: 'no-transformer' })).toBe(true);
    for (const contentType of ['text/plain', 'text/event-stream', 'application/jsonp', undefined])
      expect(compressible({ ...json, contentType }), String(contentType)).toBe(false);
    for (const status of [204, 206, 304, 404, 500, 503])
      expect(compressible({ ...json, status }), String(status)).toBe(false);
  });

  it('adds Accept-Encoding to Vary once', () => {
    expect(varyWithEncoding(undefined)).toBe('accept-encoding');
    expect(varyWithEncoding('Origin')).toBe('Origin, accept-encoding');
    expect(varyWithEncoding('Origin, Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyWithEncoding('*')).toBe('*');
  });
});
