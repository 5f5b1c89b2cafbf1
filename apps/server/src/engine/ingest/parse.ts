/**
 * Reads an uploaded file (the provider API's base64 'auto' content type) into pages of text.
 * The format is detected from the bytes; every way a file can be unreadable ends in a ParseError
 * whose message is the reason shown to users. Every format but plain text is read in a process
 * with a memory cap and a timeout (parse-pool.ts); text decoding is linear in the file's size.
 */
import { DEFAULT_PARSE_LIMITS, type ParseLimits, ParsePool } from './parse-pool.ts';
import { declaredHtmlEncoding, detectFormat, type FileFormat } from './parsers/detect.ts';
import { parseDocx } from './parsers/docx.ts';
import { htmlToText } from './parsers/html.ts';
import type { Ocr } from './parsers/ocr.ts';
import { ParseError } from './parsers/parse-error.ts';
import { parsePdf } from './parsers/pdf.ts';
import { decodeText, isBlank, storableText } from './parsers/text.ts';

/** Not a ParseError: the file is fine, the server is stopping (a retry may succeed). */
export { ParsingStopped } from './parse-pool.ts';
export { ParseError };

export interface ParsedDocument {
  pages: string[];
  /** Pages whose text was read by OCR. */
  ocrPages: number;
}

/**
 * The parsers of one engine: plain text is read here, every other format in its parse processes
 * (made on first use, at most one pool of them, ended by close).
 */
export class Parser {
  readonly #limits: ParseLimits;
  #pool: ParsePool | undefined;
  readonly #closeOnExit = () => this.close();

  constructor(limits: ParseLimits = DEFAULT_PARSE_LIMITS) {
    this.#limits = limits;
  }

  /**
   * `signal`: aborting it (the document was deleted, the worker stops) ends the parse at once and
   * rejects with the signal's reason.
   */
  async parse(bytes: Buffer, hint?: { filename?: string; signal?: AbortSignal }): Promise<ParsedDocument> {
    hint?.signal?.throwIfAborted();
    if (bytes.length === 0) throw new ParseError('The file is empty.');
    const format = detectFormat(bytes, hint?.filename);
    const { pages, ocrPages } = format === 'text' ? textPages(bytes) : await this.#processes().run({ bytes, format }, hint?.signal);
    const storable = pages.map(storableText);
    if (storable.every(isBlank)) throw new ParseError(NO_TEXT[format]);
    return { pages: storable, ocrPages };
  }

  /** Kills the parse processes (shutdown, after tests); parses in flight reject with ParsingStopped. A later parse starts new ones. */
  close(): void {
    this.#pool?.close();
    this.#pool = undefined;
    process.off('exit', this.#closeOnExit);
  }

  #processes(): ParsePool {
    if (this.#pool) return this.#pool;
    // No parse process outlives the process or thread that owns it, however that ends.
    process.once('exit', this.#closeOnExit);
    return (this.#pool = new ParsePool(this.#limits));
  }
}

/** The pages of a file of a known format, read here with this process's OCR (parse-child.ts calls it in its own process). */
export async function readPages(bytes: Buffer, format: FileFormat, ocr: Ocr): Promise<ParsedDocument> {
  switch (format) {
    case 'pdf':
      return { pages: await parsePdf(bytes), ocrPages: 0 };
    case 'docx':
      return { pages: [await parseDocx(bytes)], ocrPages: 0 };
    case 'png':
    case 'jpeg':
      return { pages: [await ocr.recognize(bytes, format === 'png' ? 'PNG' : 'JPEG')], ocrPages: 1 };
    case 'html':
      return { pages: [htmlToText(decodeText(bytes, declaredHtmlEncoding(bytes)))], ocrPages: 0 };
    case 'text':
      return textPages(bytes);
  }
}

// Markdown is kept as written: its markup is mostly words and punctuation, and searchable.
const textPages = (bytes: Buffer): ParsedDocument => ({ pages: [decodeText(bytes)], ocrPages: 0 });

const NO_TEXT: Record<FileFormat, string> = {
  pdf: 'The PDF has no extractable text (scanned pages are not read by OCR; upload them as PNG or JPEG images).',
  docx: 'The DOCX document contains no text.',
  png: 'No text was recognised in the image.',
  jpeg: 'No text was recognised in the image.',
  html: 'The HTML page has no visible text.',
  text: 'The file contains only whitespace.',
};
