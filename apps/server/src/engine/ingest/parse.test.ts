import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import JSZip from 'jszip';
import { afterAll, describe, expect, test } from 'vitest';
import { ParseError, Parser, ParsingStopped } from './parse.ts';
import { Ocr, OcrStopped } from './parsers/ocr.ts';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/ingest/${name}`, import.meta.url)));

const parser = new Parser();
const ocr = new Ocr();

afterAll(async () => {
  parser.close();
  await ocr.close();
});

/** Expects the promise to fail with a ParseError whose message matches. */
async function expectParseError(promise: Promise<unknown>, message: string | RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  expect((error as ParseError).message).toMatch(message);
}

/** Either pages or a ParseError: never another exception. */
async function parsesOrRefuses(bytes: Buffer) {
  try {
    const parsed = await parser.parse(bytes);
    expect(parsed.pages.length).toBeGreaterThan(0);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
  }
}

describe('PDF', () => {
  test('one page per PDF page', async () => {
    const parsed = await parser.parse(fixture('two-pages.pdf'));
    expect(parsed.ocrPages).toBe(0);
    expect(parsed.pages).toHaveLength(2);
    expect(parsed.pages[0]).toContain('Page one: the quick brown fox.');
    expect(parsed.pages[1]).toContain('Page two: jumps over the lazy dog.');
  });

  test('a damaged PDF is refused with its reason', async () => {
    await expectParseError(parser.parse(fixture('damaged.pdf')), 'The PDF file is damaged or not a PDF.');
  });

  test('a file named .pdf that is not a PDF is reported as such', async () => {
    await expectParseError(parser.parse(Buffer.from('hello'), { filename: 'report.pdf' }), 'The PDF file is damaged or not a PDF.');
  });

  test('a text that only mentions %PDF- stays a text', async () => {
    const parsed = await parser.parse(Buffer.from('The header %PDF-1.7 starts every PDF file.'));
    expect(parsed.pages).toEqual(['The header %PDF-1.7 starts every PDF file.']);
  });

  test('truncated and corrupted PDFs give pages or a ParseError, never a crash (fast-check)', async () => {
    const pdf = fixture('two-pages.pdf');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 9, max: pdf.length }),
        fc.array(fc.tuple(fc.nat(pdf.length - 1), fc.nat(255)), { maxLength: 8 }),
        async (length, flips) => {
          const bytes = Buffer.from(pdf.subarray(0, length));
          for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
          await parsesOrRefuses(bytes);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('DOCX', () => {
  test('raw text of the document as one page', async () => {
    const parsed = await parser.parse(fixture('letter.docx'));
    expect(parsed).toEqual({ pages: [expect.any(String)], ocrPages: 0 });
    expect(parsed.pages[0]).toContain('Dear reader, this is a DOCX fixture.');
    expect(parsed.pages[0]).toContain('It has a second paragraph.');
  });

  test('a damaged DOCX is refused with its reason', async () => {
    const docx = fixture('letter.docx');
    await expectParseError(parser.parse(docx.subarray(0, docx.length - 200)), 'The DOCX file is damaged or not a Word document.');
  });

  test('other ZIP archives are refused by name', async () => {
    const zip = new JSZip();
    zip.file('xl/workbook.xml', '<workbook/>');
    await expectParseError(parser.parse(await zip.generateAsync({ type: 'nodebuffer' })), /XLSX\) are not supported/);
    const plain = new JSZip();
    plain.file('notes.txt', 'hello');
    await expectParseError(parser.parse(await plain.generateAsync({ type: 'nodebuffer' })), /ZIP archives are not supported/);
  });
});

describe('images (OCR, offline)', () => {
  test('a PNG is read by OCR as one page', async () => {
    const parsed = await parser.parse(fixture('words.png'));
    expect(parsed.ocrPages).toBe(1);
    expect(parsed.pages).toHaveLength(1);
    for (const word of ['HELLO', 'SIFT', 'SEARCH']) expect(parsed.pages[0]).toContain(word);
  });

  test('a JPEG is read by OCR as one page', async () => {
    const parsed = await parser.parse(fixture('words.jpg'));
    expect(parsed.ocrPages).toBe(1);
    for (const word of ['INVOICE', 'TOTAL', 'PAID']) expect(parsed.pages[0]).toContain(word);
  });

  test('a damaged PNG is refused, and OCR keeps working afterwards', async () => {
    const png = fixture('words.png');
    await expectParseError(parser.parse(Buffer.concat([png.subarray(0, 40), Buffer.from('garbage')])), 'The PNG image is damaged or could not be decoded.');
    await expectParseError(parser.parse(png.subarray(0, 12)), 'The PNG image is damaged or incomplete.');
    expect((await parser.parse(png)).pages[0]).toContain('SIFT');
  });

  test('an image too large for OCR is refused before decoding', async () => {
    const header = Buffer.from(fixture('words.png').subarray(0, 33));
    header.writeUInt32BE(100_000, 16);
    header.writeUInt32BE(100_000, 20);
    await expectParseError(parser.parse(header), /too large for OCR \(100000×100000 pixels/);
  });

  test('OCR that exceeds its time limit is abandoned with a reason, and the next one works', async () => {
    const png = fixture('words.png');
    await expectParseError(ocr.recognize(png, 'PNG', 1), /OCR did not finish within/);
    expect(await ocr.recognize(png, 'PNG')).toContain('HELLO');
  });

  test('Ocr.close() fails queued and running recognitions with OcrStopped (retryable, not a bad file)', async () => {
    const png = fixture('words.png');
    await ocr.recognize(png, 'PNG'); // the worker exists
    const running = ocr.recognize(png, 'PNG');
    const queued = ocr.recognize(png, 'PNG');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await ocr.close();
    await expect(running).rejects.toBeInstanceOf(OcrStopped);
    await expect(queued).rejects.toBeInstanceOf(OcrStopped);
    expect(await ocr.recognize(png, 'PNG')).toContain('HELLO'); // a new worker on next use
  });

  test('parser.close() fails parses in flight with ParsingStopped (retryable, not a bad file), and parsing works again afterwards', async () => {
    const png = fixture('words.png');
    const running = parser.parse(png);
    await new Promise((resolve) => setTimeout(resolve, 20));
    parser.close();
    await expect(running).rejects.toBeInstanceOf(ParsingStopped);
    expect((await parser.parse(png)).pages[0]).toContain('HELLO');
  });

  test("closing one parser leaves another's parses running, and each keeps its own bounds", async () => {
    const png = fixture('words.png');
    const other = new Parser({ timeoutMs: 1, memoryMb: 768 });
    try {
      const running = parser.parse(png);
      await expectParseError(other.parse(png), /took longer than 0.001 seconds/);
      other.close();
      expect((await running).pages[0]).toContain('HELLO');
    } finally {
      other.close();
    }
  });

  test('concurrent recognitions are queued on the one worker', async () => {
    const [a, b] = await Promise.all([parser.parse(fixture('words.png')), parser.parse(fixture('words.jpg'))]);
    expect(a.pages[0]).toContain('SEARCH');
    expect(b.pages[0]).toContain('INVOICE');
  });
});

describe('HTML', () => {
  test('visible text only: no script, style, comments or head metadata', async () => {
    const parsed = await parser.parse(fixture('page.html'));
    expect(parsed).toEqual({
      pages: [
        'Sift fixture\n\nRetrieval & ranking\n\nSift searches uploaded documents.\nScores lie between 0 < s ≤ 1.\n\n' +
          'First item\nSecond item — with a dash',
      ],
      ocrPages: 0,
    });
  });

  test('detected by file name when there is no doctype', async () => {
    const parsed = await parser.parse(Buffer.from('<p>Hello <i>there</i></p><script>x()</script>'), { filename: 'a/b.HTM' });
    expect(parsed.pages).toEqual(['Hello there']);
  });

  test('the encoding an HTML page declares is honoured when it is not UTF-8', async () => {
    const html = Buffer.concat([
      Buffer.from('<!DOCTYPE html><html><head><meta charset="windows-1252"></head><body>Caf'),
      Buffer.from([0xe9, 0x20, 0x80]),
      Buffer.from('</body></html>'),
    ]);
    expect((await parser.parse(html)).pages).toEqual(['Café €']);
  });

  test('a page with no visible text is refused', async () => {
    await expectParseError(parser.parse(Buffer.from('<!doctype html><script>1</script>')), 'The HTML page has no visible text.');
  });
});

describe('text and Markdown', () => {
  test('Markdown is kept as written, one page', async () => {
    const markdown = fixture('notes.md');
    expect(await parser.parse(markdown)).toEqual({ pages: [markdown.toString('utf8')], ocrPages: 0 });
  });

  test('UTF-8 with a BOM, and UTF-16 with a BOM', async () => {
    expect((await parser.parse(Buffer.from('\ufeffnaïve café', 'utf8'))).pages).toEqual(['naïve café']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('日本語 text', 'utf16le')]);
    expect((await parser.parse(utf16)).pages).toEqual(['日本語 text']);
  });

  test('empty, whitespace-only, invalid UTF-8 and binary files are refused with a reason', async () => {
    await expectParseError(parser.parse(Buffer.alloc(0)), 'The file is empty.');
    await expectParseError(parser.parse(Buffer.from(' \n\t ')), 'The file contains only whitespace.');
    await expectParseError(parser.parse(Buffer.from([0x68, 0x69, 0xc3, 0x28, 0xff])), /not valid UTF-8 text/);
    await expectParseError(parser.parse(Buffer.from('abc\u0000def')), /looks like binary data/);
    await expectParseError(parser.parse(Buffer.from('GIF89a\u0001\u0000')), 'GIF images are not supported (PNG and JPEG are).');
  });

  test('any bytes give pages or a ParseError (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => parsesOrRefuses(Buffer.from(bytes))),
      { numRuns: 300 },
    );
  });
});
