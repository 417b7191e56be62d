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
    expect(compressible(200, 'application/json; charset=utf-8', false, 48_000)).toBe(true);
    expect(compressible(200, 'application/problem+json', false, -1)).toBe(true);
    expect(compressible(201, 'text/csv', false, MIN_BYTES)).toBe(true);
    expect(compressible(200, 'application/json', false, MIN_BYTES - 1)).toBe(false);
    expect(compressible(200, 'application/json', true, 48_000)).toBe(false); // encoded already
    expect(compressible(200, 'text/plain', false, 48_000)).toBe(false);
    expect(compressible(200, 'text/event-stream', false, -1)).toBe(false);
    expect(compressible(200, 'application/jsonp', false, 48_000)).toBe(false);
    expect(compressible(200, undefined, false, 48_000)).toBe(false);
    for (const status of [204, 206, 304, 404, 500, 503])
      expect(compressible(status, 'application/json', false, 48_000)).toBe(false);
  });

  it('adds Accept-Encoding to Vary once', () => {
    expect(varyWithEncoding(undefined)).toBe('accept-encoding');
    expect(varyWithEncoding('Origin')).toBe('Origin, accept-encoding');
    expect(varyWithEncoding('Origin, Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyWithEncoding('*')).toBe('*');
  });
});
