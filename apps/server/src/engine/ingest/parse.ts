/**
 * Reads an uploaded file (the provider API's base64 'auto' content type) into pages of text.
 * The format is detected from the bytes; every way a file can be unreadable ends in a ParseError
 * whose message is the reason shown to users.
 */
import { declaredHtmlEncoding, detectFormat, type FileFormat } from './parsers/detect.ts';
import { parseDocx } from './parsers/docx.ts';
import { htmlToText } from './parsers/html.ts';
import { recognizeImage } from './parsers/ocr.ts';
import { ParseError } from './parsers/parse-error.ts';
import { parsePdf } from './parsers/pdf.ts';
import { decodeText, isBlank, storableText } from './parsers/text.ts';

/** Not ParseErrors: the file is fine, the engine is not (a retry may succeed). */
export { closeOcr, OcrEngineUnavailable, OcrStopped } from './parsers/ocr.ts';
export { ParseError };

export interface ParsedDocument {
  pages: string[];
  /** Pages whose text was read by OCR. */
  ocrPages: number;
}

export async function parseFile(bytes: Buffer, hint?: { filename?: string; signal?: AbortSignal }): Promise<ParsedDocument> {
  if (bytes.length === 0) throw new ParseError('The file is empty.');
  const format = detectFormat(bytes, hint?.filename);
  const { pages, ocrPages } = await readPages(bytes, format);
  const storable = pages.map(storableText);
  if (storable.every(isBlank)) throw new ParseError(NO_TEXT[format]);
  return { pages: storable, ocrPages };
}

async function readPages(bytes: Buffer, format: FileFormat): Promise<ParsedDocument> {
  switch (format) {
    case 'pdf':
      return { pages: await parsePdf(bytes), ocrPages: 0 };
    case 'docx':
      return { pages: [await parseDocx(bytes)], ocrPages: 0 };
    case 'png':
    case 'jpeg':
      return { pages: [await recognizeImage(bytes, format === 'png' ? 'PNG' : 'JPEG')], ocrPages: 1 };
    case 'html':
      return { pages: [htmlToText(decodeText(bytes, declaredHtmlEncoding(bytes)))], ocrPages: 0 };
    case 'text':
      // Markdown is kept as written: its markup is mostly words and punctuation, and searchable.
      return { pages: [decodeText(bytes)], ocrPages: 0 };
  }
}

const NO_TEXT: Record<FileFormat, string> = {
  pdf: 'The PDF has no extractable text (scanned pages are not read by OCR; upload them as PNG or JPEG images).',
  docx: 'The DOCX document contains no text.',
  png: 'No text was recognised in the image.',
  jpeg: 'No text was recognised in the image.',
  html: 'The HTML page has no visible text.',
  text: 'The file contains only whitespace.',
};
