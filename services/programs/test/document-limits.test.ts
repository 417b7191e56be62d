import { ERRORS, type ErrorCode, type ProgramAnalysis } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentTooComplex, documentText, EXTRACTION_LIMITS } from '../src/extract.ts';
import { cleanFileName } from '../src/upload.ts';
import { checkZip } from '../src/zip.ts';
import { makeDocx, makeDocxBomb, makeDocxManyEntries, makePdf, makePdfBomb } from './documents.ts';
import { PROGRAM_DOCUMENT } from './fixtures.ts';
import { multipart, snapshot, startPrograms, testUser, type TestContext } from './helpers.ts';

const admin = testUser(true);

const upload = (ctx: TestContext, name: string, bytes: Buffer) => {
  const body = multipart({ name, bytes });
  return ctx.service.app.inject({
    method: 'POST',
    url: '/api/analyze-referral-program',
    headers: { ...admin.headers, ...body.headers },
    payload: body.payload,
  });
};

const refusal = (code: ErrorCode) => ({ message: ERRORS[code].message, code });
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

describe('document reading is bounded (issue 11, item 3)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startPrograms();
  });
  afterAll(async () => ctx?.close());

  /** Uploads a bomb: 422 DOCUMENT_TOO_COMPLEX, no row, no object, and memory reported and bounded. */
  async function refusedBomb(name: string, bytes: Buffer) {
    const before = await snapshot(ctx.sql);
    const keys = await ctx.objectKeys();
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = Date.now();
    const response = await upload(ctx, name, bytes);
    clearInterval(sampler);
    const rssAfter = process.memoryUsage().rss;
    console.log(
      `${name}: ${Math.round(bytes.length / 1024)} KB upload, ${response.statusCode} in ${Date.now() - started} ms; ` +
        `RSS before ${mb(rssBefore)}, peak ${mb(peak)}, after ${mb(rssAfter)}`,
    );
    expect(response.statusCode, name).toBe(422);
    expect(response.json()).toEqual(refusal('DOCUMENT_TOO_COMPLEX'));
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
    // Unbounded, the bomb took the service from 504 MB to 1.5 GB.
    expect(peak - rssBefore, `${name}: RSS growth`).toBeLessThan(400 * 1024 * 1024);
  }

  it("refuses the issue's zip bomb (205 KB expanding to 209,715,211 characters) from its declared sizes", async () => {
    const bomb = await makeDocxBomb();
    expect(bomb.length).toBeLessThan(300 * 1024);
    expect(await checkZip(bomb, EXTRACTION_LIMITS)).toBe('too-complex');
    await refusedBomb('bomb.docx', bomb);
  });

  it('refuses a zip bomb whose central directory lies about its sizes, counting while inflating', async () => {
    const bomb = await makeDocxBomb({ lie: true });
    await refusedBomb('lying-bomb.docx', bomb);
  });

  it('refuses a DOCX of many highly compressed entries, declared or lying', async () => {
    await refusedBomb('many.docx', await makeDocxManyEntries(200, 1024 * 1024));
    await refusedBomb('many-lying.docx', await makeDocxManyEntries(200, 1024 * 1024, true));
  });

  it('refuses a PDF whose flate stream expands to 200 MB of text', async () => {
    await refusedBomb('bomb.pdf', await makePdfBomb(200_000));
  });

  it('refuses more than 1,000,000 characters of text, and takes exactly that many', async () => {
    await refusedBomb('long.txt', Buffer.alloc(1_000_001, 'a'));
    const longest = Buffer.alloc(1_000_000, 'a');
    Buffer.from('Long Program\n\n').copy(longest);
    const response = await upload(ctx, 'longest.txt', longest);
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>().programName).toBe('Long Program');
  });

  it('still reads ordinary documents, and answers no more than the program form takes', async () => {
    const docx = await upload(ctx, 'program.docx', await makeDocx(PROGRAM_DOCUMENT.split('\n')));
    expect(docx.statusCode).toBe(200);
    expect(docx.json<ProgramAnalysis>().programName).toBe('Northwind Analytics Partner Referral Program');
    // A document that is one long reward section: the answer carries at most 20,000 characters of it.
    const rewards = `Rewards\n\n${'We pay a $100 bonus for every referral that closes. '.repeat(15_000)}`;
    const long = await upload(ctx, 'rewards.txt', Buffer.from(rewards));
    expect(long.statusCode).toBe(200);
    expect(long.json<ProgramAnalysis>().rewardDetails.length).toBe(20_000);
    expect(long.body.length).toBeLessThan(30_000);
  });
});

describe('upload names and cut uploads (issue 11, items 2 and 8)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startPrograms();
  });
  afterAll(async () => ctx?.close());

  const documentRows = async () =>
    (await ctx.sql.query('SELECT id, storage_key, original_file_name FROM programs.program_documents')).rows as Array<{
      id: string;
      storage_key: string;
      original_file_name: string;
    }>;

  it('cleans NUL, control characters and path separators out of the file name, and stores the document once', async () => {
    const keys = await ctx.objectKeys();
    const response = await upload(ctx, '..\\evil/pro\u0000gram\u001b\u202E.txt', Buffer.from(PROGRAM_DOCUMENT));
    expect(response.statusCode).toBe(200);
    const { documentId } = response.json<ProgramAnalysis>();
    const row = (await documentRows()).find((document) => document.id === documentId);
    expect(row?.original_file_name).toBe('program.txt');
    const added = (await ctx.objectKeys()).filter((key) => !keys.includes(key));
    expect(added).toEqual([row?.storage_key]);
  });

  it('removes the stored object again when the record cannot be written', async () => {
    const keys = await ctx.objectKeys();
    const before = await snapshot(ctx.sql);
    await ctx.sql.query('ALTER TABLE programs.program_documents ADD CONSTRAINT refuse_all CHECK (false) NOT VALID');
    try {
      const response = await upload(ctx, 'program.txt', Buffer.from(PROGRAM_DOCUMENT));
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual(refusal('INTERNAL_ERROR'));
    } finally {
      await ctx.sql.query('ALTER TABLE programs.program_documents DROP CONSTRAINT refuse_all');
    }
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });

  it('refuses a multipart body cut before the end of the file with 400, storing nothing', async () => {
    const keys = await ctx.objectKeys();
    const before = await snapshot(ctx.sql);
    const body = multipart({ name: 'program.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    const cut = body.payload.subarray(0, body.payload.length - 200);
    const response = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/analyze-referral-program',
      headers: { ...admin.headers, ...body.headers },
      payload: cut,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(refusal('UPLOAD_INCOMPLETE'));
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });
  it('answers malformed multipart bodies with 400, never 500, storing nothing', async () => {
    const keys = await ctx.objectKeys();
    const before = await snapshot(ctx.sql);
    const part = '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n';
    const cases: Array<[string, string, ErrorCode]> = [
      ['multipart/form-data', 'garbage', 'FILE_REQUIRED'],
      ['multipart/form-data; boundary=abc', 'garbage', 'UPLOAD_INCOMPLETE'],
      ['multipart/form-data; boundary=abc', part, 'UPLOAD_INCOMPLETE'],
      ['multipart/form-data; boundary=abc', `${part}\r\nProgram text`, 'UPLOAD_INCOMPLETE'],
      ['multipart/form-data; boundary=abc', '', 'FILE_REQUIRED'],
    ];
    for (const [type, payload, code] of cases) {
      const response = await ctx.service.app.inject({
        method: 'POST',
        url: '/api/analyze-referral-program',
        headers: { ...admin.headers, 'content-type': type },
        payload,
      });
      expect(response.statusCode, `${type} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json()).toEqual(refusal(code));
    }
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });
});

describe('document reading limits (units)', () => {
  it('stops a reader that takes longer than the time limit', async () => {
    const pdf = makePdf(PROGRAM_DOCUMENT.split('\n'));
    expect(await documentText('pdf', pdf)).toContain('Northwind Analytics');
    await expect(documentText('pdf', pdf, { ...EXTRACTION_LIMITS, timeoutMs: 1 })).rejects.toBeInstanceOf(
      DocumentTooComplex,
    );
  });

  it('stops reading past the text limit, in the reader too', async () => {
    const pdf = makePdf(PROGRAM_DOCUMENT.split('\n'));
    const docx = await makeDocx(PROGRAM_DOCUMENT.split('\n'));
    const limits = { ...EXTRACTION_LIMITS, maxChars: 100 };
    await expect(documentText('pdf', pdf, limits)).rejects.toThrow('more than 100 characters');
    await expect(documentText('docx', docx, limits)).rejects.toBeInstanceOf(DocumentTooComplex);
    expect(await documentText('docx', docx)).toContain('Commission Structure');
  });

  it('keeps the last segment of a file name, without control or format characters', () => {
    expect(cleanFileName('prog\u0000ram.pdf')).toBe('program.pdf');
    expect(cleanFileName('C:\\fakepath\\terms.pdf')).toBe('terms.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('a\r\nb\tc\u001b[31m.txt')).toBe('abc[31m.txt');
    expect(cleanFileName('\u200B\u200B')).toBe('document');
    expect(cleanFileName('..')).toBe('document');
    expect(cleanFileName('Cafe\u0301.pdf')).toBe('Café.pdf');
    expect(cleanFileName('x'.repeat(300))).toHaveLength(255);
  });
});
