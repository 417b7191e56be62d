import { createHash } from 'node:crypto';
import { ERRORS, PROGRAM_DOCUMENT_MAX_BYTES, type ErrorCode, type ProgramAnalysis } from '@app/contracts';
import { messageText, startFakeOpenAi, type FakeOpenAi } from '@app/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeDocx, makePdf, makePdfOfSize, makeZip, PNG } from './documents.ts';
import { PROGRAM_DOCUMENT, REWARD_SECTION } from './fixtures.ts';
import { multipart, snapshot, startPrograms, testUser, type TestContext } from './helpers.ts';

const admin = testUser(true);
const user = testUser(false);

const upload = (
  ctx: TestContext,
  file: Parameters<typeof multipart>[0],
  headers = admin.headers,
  fields: Record<string, string> = {},
) => {
  const body = multipart(file, fields);
  return ctx.service.app.inject({
    method: 'POST',
    url: '/api/analyze-referral-program',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
};

/** The error answer of a code, with its default message (the spec's words). */
const refusal = (code: ErrorCode) => ({ message: ERRORS[code].message, code });

async function documentRow(ctx: TestContext, id: string) {
  const { rows } = await ctx.sql.query('SELECT * FROM programs.program_documents WHERE id = $1', [id]);
  return rows[0] as Record<string, unknown> | undefined;
}

describe('document analysis without a language model', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startPrograms();
  });
  afterAll(async () => ctx?.close());

  it('reads a PDF, stores the bytes in object storage and records the document', async () => {
    const pdf = makePdf(PROGRAM_DOCUMENT.split('\n'));
    const response = await upload(ctx, { name: 'northwind.pdf', bytes: pdf, type: 'application/pdf' });
    expect(response.statusCode).toBe(200);
    const analysis = response.json<ProgramAnalysis>();
    expect(analysis).toMatchObject({
      programName: 'Northwind Analytics Partner Referral Program',
      website: 'https://northwind.example.com/partners',
      vendorName: 'Northwind Analytics',
      analyzedBy: 'extractor',
    });
    // PDF lines carry no blank lines between paragraphs, but every reward line is there verbatim.
    for (const line of REWARD_SECTION.split('\n')) expect(analysis.rewardDetails).toContain(line.trim());

    const row = await documentRow(ctx, analysis.documentId);
    expect(row).toMatchObject({
      original_file_name: 'northwind.pdf',
      detected_type: 'pdf',
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      uploaded_by: admin.userId,
      analysis,
    });
    expect(await ctx.getObject(row!.storage_key as string)).toEqual(pdf);
  });

  it('reads a DOCX', async () => {
    const paragraphs = PROGRAM_DOCUMENT.split('\n\n').flatMap((block) => block.split('\n'));
    const docx = await makeDocx([{ heading: 'Northwind Analytics Partner Referral Program' }, ...paragraphs.slice(1)]);
    const response = await upload(ctx, { name: 'northwind.docx', bytes: docx });
    expect(response.statusCode).toBe(200);
    const analysis = response.json<ProgramAnalysis>();
    expect(analysis.programName).toBe('Northwind Analytics Partner Referral Program');
    expect(analysis.website).toBe('https://northwind.example.com/partners');
    for (const line of REWARD_SECTION.split('\n')) expect(analysis.rewardDetails).toContain(line.trim());
    expect((await documentRow(ctx, analysis.documentId))?.detected_type).toBe('docx');
    expect(await ctx.getObject(`documents/${analysis.documentId}.docx`)).toEqual(docx);
  });

  it('reads a TXT with the reward section exactly as written', async () => {
    const response = await upload(ctx, {
      name: 'northwind.txt',
      bytes: Buffer.from(PROGRAM_DOCUMENT.replaceAll('\n', '\r\n')),
      type: 'text/plain',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>()).toMatchObject({
      programName: 'Northwind Analytics Partner Referral Program',
      description:
        'Northwind Analytics builds dashboards for retail chains. Partners who introduce retailers to us share in the revenue they bring.',
      website: 'https://northwind.example.com/partners',
      rewardDetails: REWARD_SECTION,
      vendorName: 'Northwind Analytics',
      analyzedBy: 'extractor',
    });
  });

  it('proposes the vendor from a Company line, else the title, else the website', async () => {
    const vendorOf = async (text: string) => {
      const response = await upload(ctx, { name: 'program.txt', bytes: Buffer.from(text) });
      expect(response.statusCode).toBe(200);
      return response.json<ProgramAnalysis>().vendorName;
    };
    expect(await vendorOf('Partner Brief\n\nCompany: Contoso Ltd.\nWe pay 10% per closed deal.')).toBe('Contoso Ltd');
    expect(await vendorOf('The HubSpot Solutions Partner Program\n\nEarn 20% recurring.')).toBe('HubSpot Solutions');
    expect(
      await vendorOf('Refer and earn\n\nVisit https://partners.fabrikam.io/join to sign up. We pay $500 per customer.'),
    ).toBe('Fabrikam');
    expect(await vendorOf('Refer and earn\n\nWe pay $500 per customer.')).toBe('');
  });

  it('detects the type from the content, not the name', async () => {
    const text = await upload(ctx, {
      name: 'looks-like.pdf',
      bytes: Buffer.from(PROGRAM_DOCUMENT),
      type: 'application/pdf',
    });
    expect(text.statusCode).toBe(200);
    const id = text.json<ProgramAnalysis>().documentId;
    expect((await documentRow(ctx, id))?.detected_type).toBe('txt');
    expect(await ctx.objectKeys()).toContain(`documents/${id}.txt`);

    // A PNG named .txt is an image: without a vision model it gets the clear message, and nothing is stored.
    const before = await snapshot(ctx.sql);
    const keys = await ctx.objectKeys();
    const image = await upload(ctx, { name: 'notes.txt', bytes: PNG, type: 'text/plain' });
    expect(image.statusCode).toBe(422);
    expect(image.json()).toEqual(refusal('IMAGE_NEEDS_VISION'));
    const jpeg = await upload(ctx, {
      name: 'scan.jpg',
      bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]),
    });
    expect(jpeg.statusCode).toBe(422);
    expect(jpeg.json()).toEqual(refusal('IMAGE_NEEDS_VISION'));
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });

  it('refuses unsupported content with 415, whatever the name, and stores nothing', async () => {
    const before = await snapshot(ctx.sql);
    const keys = await ctx.objectKeys();
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(256)]);
    const ole = Buffer.alloc(1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    for (const [name, bytes] of [
      ['program.exe', exe],
      ['program.pdf', exe],
      ['program.docx', await makeZip()],
      ['program.zip', await makeZip()],
      ['sheet.doc', ole],
      ['binary.txt', Buffer.from([0x41, 0x00, 0x42])],
    ] as const) {
      const response = await upload(ctx, { name, bytes });
      expect(response.statusCode, name).toBe(415);
      expect(response.json()).toEqual(refusal('UNSUPPORTED_FILE_TYPE'));
    }
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });

  it('refuses a document over 10 MB with 413 and stores nothing', async () => {
    const before = await snapshot(ctx.sql);
    const keys = await ctx.objectKeys();
    const response = await upload(ctx, { name: 'big.txt', bytes: Buffer.alloc(PROGRAM_DOCUMENT_MAX_BYTES + 1, 'a') });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual(refusal('DOCUMENT_TOO_LARGE'));
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });

  it('accepts a document of exactly 10 MB', async () => {
    const bytes = makePdfOfSize(['Big Program', '', 'We pay $100 per referral.'], PROGRAM_DOCUMENT_MAX_BYTES);
    expect(bytes.length).toBe(PROGRAM_DOCUMENT_MAX_BYTES);
    const response = await upload(ctx, { name: 'big.pdf', bytes });
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>().programName).toBe('Big Program');
  });

  it('asks for a file when there is none, and refuses empty, damaged and misnamed uploads', async () => {
    const before = await snapshot(ctx.sql);
    const keys = await ctx.objectKeys();
    const none = await upload(ctx, null, admin.headers, { note: 'no file' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(refusal('FILE_REQUIRED'));
    const wrongField = await upload(ctx, { name: 'a.txt', bytes: Buffer.from('hello'), field: 'document' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toEqual(refusal('FILE_REQUIRED'));
    const json = await ctx.service.app.inject({
      method: 'POST',
      url: '/api/analyze-referral-program',
      headers: admin.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual(refusal('FILE_REQUIRED'));
    const empty = await upload(ctx, { name: 'empty.txt', bytes: Buffer.alloc(0) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: 'The document is empty', code: 'EMPTY_FILE' });
    const damaged = await upload(ctx, { name: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\n garbage without objects') });
    expect(damaged.statusCode).toBe(422);
    expect(damaged.json().message).toMatch(/could not be read/);
    expect(damaged.json().code).toBe('DOCUMENT_UNREADABLE');
    // A Word 97-2003 header with a WordDocument stream name but no real document in it.
    const fakeDoc = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(fakeDoc);
    Buffer.from('WordDocument', 'utf16le').copy(fakeDoc, 1024);
    const doc = await upload(ctx, { name: 'old.doc', bytes: fakeDoc });
    expect(doc.statusCode).toBe(422);
    expect(doc.json().message).toMatch(/could not be read/);
    expect(doc.json().code).toBe('DOCUMENT_UNREADABLE');
    const blank = await upload(ctx, { name: 'blank.txt', bytes: Buffer.from('   \n\n  ') });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().message).toMatch(/No text was found/);
    expect(blank.json().code).toBe('DOCUMENT_HAS_NO_TEXT');
    expect(await snapshot(ctx.sql)).toEqual(before);
    expect(await ctx.objectKeys()).toEqual(keys);
  });

  it('is for administrators only', async () => {
    const before = await snapshot(ctx.sql);
    const response = await upload(ctx, { name: 'a.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) }, user.headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refusal('ADMIN_ONLY'));
    const anonymous = await upload(ctx, { name: 'a.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) }, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
    expect(await snapshot(ctx.sql)).toEqual(before);
  });
});

describe('document analysis with a language model', () => {
  let ctx: TestContext;
  let openai: FakeOpenAi;
  beforeAll(async () => {
    openai = await startFakeOpenAi({ models: ['gpt-4o-mini'] });
    ctx = await startPrograms({
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.url,
      OPENAI_MAX_RETRIES: '0',
      OPENAI_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await openai?.close();
  });
  beforeEach(() => openai.reset());

  const modelAnswer = (overrides: Record<string, string> = {}) =>
    JSON.stringify({
      programName: 'Northwind Partner Program',
      description: 'Retail dashboards; partners share revenue.',
      website: 'https://northwind.example.com',
      rewardDetails: REWARD_SECTION,
      ...overrides,
    });

  it('uses the model answer, with instructions in the system message and the document as data', async () => {
    openai.reply({ content: modelAnswer({ vendorName: 'Northwind Analytics, Inc.' }) });
    const response = await upload(ctx, { name: 'northwind.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>()).toMatchObject({
      programName: 'Northwind Partner Program',
      description: 'Retail dashboards; partners share revenue.',
      website: 'https://northwind.example.com',
      rewardDetails: REWARD_SECTION,
      vendorName: 'Northwind Analytics, Inc.',
      analyzedBy: 'llm',
    });
    const [chat] = openai.chats();
    expect(chat?.response_format).toEqual({ type: 'json_object' });
    const system = messageText(chat?.messages[0]);
    expect(system).toMatch(/VERBATIM/);
    expect(system).toMatch(/"vendorName"/);
    expect(system).not.toContain('Northwind');
    const data = JSON.parse(messageText(chat?.messages[1])) as { documentText: string; fileName: string };
    expect(data).toEqual({ fileName: 'northwind.txt', documentText: PROGRAM_DOCUMENT.trim() });
  });

  it('asks again after invalid JSON, then falls back to the extractor', async () => {
    openai.reply({ content: 'Sure! The program is Northwind.' }, { content: '{"programName": 3}' });
    const response = await upload(ctx, { name: 'northwind.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>()).toMatchObject({
      programName: 'Northwind Analytics Partner Referral Program',
      rewardDetails: REWARD_SECTION,
      analyzedBy: 'extractor',
    });
    expect(openai.chats()).toHaveLength(2);
    expect(messageText(openai.chats()[1]?.messages[0])).toMatch(/previous answer did not follow the required format/);
  });

  it('uses a valid second answer after an invalid first one', async () => {
    openai.reply({ content: 'not json' }, { content: modelAnswer() });
    const response = await upload(ctx, { name: 'northwind.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    // A model that names no vendor: the document's, as the extractor reads it.
    expect(response.json<ProgramAnalysis>()).toMatchObject({
      programName: 'Northwind Partner Program',
      vendorName: 'Northwind Analytics',
      analyzedBy: 'llm',
    });
  });

  it("replaces reward details that are not verbatim with the extractor's, and a bad website too", async () => {
    openai.reply({
      content: modelAnswer({
        rewardDetails: 'Partners earn between 15% and 20% of ACV, paid within 45 days.',
        website: 'northwind dot com',
      }),
    });
    const response = await upload(ctx, { name: 'northwind.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    expect(response.json<ProgramAnalysis>()).toMatchObject({
      programName: 'Northwind Partner Program',
      rewardDetails: REWARD_SECTION,
      website: 'https://northwind.example.com/partners',
      analyzedBy: 'llm',
    });
  });

  it('falls back to the extractor when the provider fails', async () => {
    openai.reply({ status: 500 });
    const response = await upload(ctx, { name: 'northwind.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>()).toMatchObject({ rewardDetails: REWARD_SECTION, analyzedBy: 'extractor' });
  });

  it('falls back to the extractor when the provider does not answer in time', async () => {
    openai.reply({ hang: true });
    const started = Date.now();
    const response = await upload(ctx, { name: 'northwind.txt', bytes: Buffer.from(PROGRAM_DOCUMENT) });
    expect(response.json<ProgramAnalysis>()).toMatchObject({ rewardDetails: REWARD_SECTION, analyzedBy: 'extractor' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reads images with a vision-capable model, sending the image to it', async () => {
    openai.reply({ content: modelAnswer({ rewardDetails: '15% of first-year ACV.' }) });
    const response = await upload(ctx, { name: 'flyer.png', bytes: PNG });
    expect(response.statusCode).toBe(200);
    expect(response.json<ProgramAnalysis>()).toMatchObject({
      programName: 'Northwind Partner Program',
      rewardDetails: '15% of first-year ACV.',
      // No text to read: the program's name without its program words.
      vendorName: 'Northwind',
      analyzedBy: 'llm',
    });
    const content = openai.chats()[0]?.messages[1]?.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(content.find((part) => part.type === 'image_url')?.image_url?.url).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
  });
});

describe('images with a model that does not read them', () => {
  let ctx: TestContext;
  let openai: FakeOpenAi;
  beforeAll(async () => {
    openai = await startFakeOpenAi({ models: ['gpt-3.5-turbo'] });
    ctx = await startPrograms({
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.url,
      OPENAI_MODEL: 'gpt-3.5-turbo',
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await openai?.close();
  });

  it('answers 422 with the clear message and never calls the model', async () => {
    const response = await upload(ctx, { name: 'flyer.png', bytes: PNG });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(refusal('IMAGE_NEEDS_VISION'));
    expect(openai.chats()).toHaveLength(0);
  });
});
