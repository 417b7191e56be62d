import zlib from 'node:zlib';
import JSZip from 'jszip';

/** A minimal but valid PDF (one page, Helvetica, one text line per entry) with a correct xref table. */
export function makePdf(lines: string[]): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = [
    'BT',
    '/F1 11 Tf',
    '14 TL',
    '50 780 Td',
    ...lines.map((line) => `(${escape(line)}) Tj T*`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A real .docx (Office Open XML) with one paragraph per entry; headings as Heading1 style. */
export async function makeDocx(paragraphs: Array<string | { heading: string }>): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`
        : `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t xml:space="preserve">${xmlEscape(p.heading)}</w:t></w:r></w:p>`,
    )
    .join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A plain zip that is not a Word document. */
export async function makeZip(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('readme.txt', 'hello');
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** One entry of a hand-written zip: its bytes as stored (deflated or not) and the sizes it declares. */
export interface RawZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** What the archive claims the entry expands to (a zip bomb may lie). */
  declaredSize: number;
}

/** A zip archive written byte by byte, so its central directory can say anything. */
export function writeZip(entries: RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * `prefix`, then `repeat` times `chunk`, then `suffix`, deflated as a stream (raw or zlib-wrapped), so a huge
 * text is compressed without ever being held: the making of a bomb. Also its CRC-32 and expanded size.
 */
export async function deflateRepeated(
  prefix: string,
  chunk: Buffer,
  repeat: number,
  suffix: string,
  raw = true,
): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflate = raw ? zlib.createDeflateRaw({ level: 9 }) : zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (piece: Buffer) => out.push(piece));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = zlib.crc32(prefix);
  const write = (piece: Buffer | string) =>
    deflate.write(piece) ? Promise.resolve() : new Promise((resolve) => deflate.once('drain', resolve));
  await write(prefix);
  for (let i = 0; i < repeat; i++) {
    crc = zlib.crc32(chunk, crc);
    await write(chunk);
  }
  crc = zlib.crc32(suffix, crc);
  deflate.end(suffix);
  await done;
  const size = Buffer.byteLength(prefix) + chunk.length * repeat + Buffer.byteLength(suffix);
  return { data: Buffer.concat(out), crc, size };
}

const DOCX_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
const DOCX_TAIL = '</w:t></w:r></w:p></w:body></w:document>';

const stored = (name: string, text: string): RawZipEntry => {
  const data = Buffer.from(text);
  return { name, method: 0, data, crc: zlib.crc32(data), declaredSize: data.length };
};

const DOCX_PARTS = [
  stored(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ),
  stored(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  ),
];

/**
 * The zip bomb: a DOCX whose one paragraph is `chars` times 'a' (209,715,200 by default: with the
 * markup, 209,715,211 characters of text and more of XML), about 200 KB once deflated. `lie` makes the
 * central directory declare a tiny size, so only counting while inflating finds out.
 */
export async function makeDocxBomb(options: { chars?: number; lie?: boolean } = {}): Promise<Buffer> {
  const chars = options.chars ?? 200 * 1024 * 1024;
  const mb = Buffer.alloc(1024 * 1024, 'a');
  const body = await deflateRepeated(DOCX_HEAD, mb, Math.floor(chars / mb.length), DOCX_TAIL);
  return writeZip([
    ...DOCX_PARTS,
    { name: 'word/document.xml', method: 8, ...body, declaredSize: options.lie ? 1000 : body.size },
  ]);
}

/** A DOCX with a small document and `count` extra entries of `entryBytes` zeros each (many small bombs). */
export async function makeDocxManyEntries(count: number, entryBytes: number, lie = false): Promise<Buffer> {
  const zeros = await deflateRepeated('', Buffer.alloc(64 * 1024), entryBytes / (64 * 1024), '');
  const document = stored('word/document.xml', `${DOCX_HEAD}Acme Partner Program${DOCX_TAIL}`);
  const extra = Array.from({ length: count }, (_, i): RawZipEntry => ({
    name: `word/media/padding${i}.bin`,
    method: 8,
    ...zeros,
    declaredSize: lie ? 10 : zeros.size,
  }));
  return writeZip([...DOCX_PARTS, document, ...extra]);
}

/** A PDF whose one page's content stream (FlateDecode) expands to `repeat` (a multiple of 1,000) lines of `(aaa...) Tj T*`. */
export async function makePdfBomb(repeat: number): Promise<Buffer> {
  // 1,000 lines at a time: about 1 MB per write.
  const lines = Buffer.from(`(${'a'.repeat(1000)}) Tj T*\n`.repeat(1000));
  const stream = await deflateRepeated('BT\n/F1 11 Tf\n14 TL\n50 780 Td\n', lines, repeat / 1000, 'ET\n', false);
  return pdfWith(stream.data, '/Filter /FlateDecode');
}

/** A one-page PDF with this content stream (and its dictionary entries), with a correct xref table. */
function pdfWith(content: Buffer, streamEntries = ''): Buffer {
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} ${streamEntries} >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) tail += `${String(offset).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(tail)]);
}

/** A readable PDF of exactly `bytes` bytes: its text, then a comment padding the content stream. */
export function makePdfOfSize(lines: string[], bytes: number): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = ['BT', '/F1 11 Tf', '14 TL', '50 780 Td', ...lines.map((line) => `(${escape(line)}) Tj T*`), 'ET', '%'];
  const build = (padding: number) => pdfWith(Buffer.concat([Buffer.from(text.join('\n')), Buffer.alloc(padding, 'x')]));
  let padding = bytes - build(0).length;
  // The xref offsets and the stream length grow by a digit or two with the padding: settle it.
  while (build(padding).length !== bytes) padding += bytes - build(padding).length;
  return build(padding);
}
