import { ParseError } from './parse-error.ts';

export type FileFormat = 'pdf' | 'docx' | 'png' | 'jpeg' | 'html' | 'text';

/**
 * The format of an uploaded file, from its bytes first (magic numbers, archive contents), then,
 * for text, from its markup or its file name. A file name that promises a binary format the bytes
 * do not have is reported as damaged: that is what users need to hear.
 */
export function detectFormat(bytes: Buffer, filename?: string): FileFormat {
  const extension = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (isPdf(bytes)) return 'pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return zipFormat(bytes);
  const unsupported = unsupportedBinary(bytes);
  if (unsupported) throw new ParseError(unsupported);

  const promised = extension && PROMISED_BINARY[extension];
  if (promised) throw new ParseError(promised);
  if (looksLikeHtml(bytes) || extension === 'html' || extension === 'htm' || extension === 'xhtml') return 'html';
  return 'text';
}

/**
 * PDF readers accept the header anywhere in the first 1024 bytes (some generators prepend junk);
 * away from the start, an end-of-file marker is required too, so that a text which merely
 * mentions "%PDF-1.4" stays a text.
 */
function isPdf(bytes: Buffer): boolean {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return true;
  return bytes.subarray(0, 1024).includes('%PDF-') && bytes.subarray(-2048).includes('%%EOF');
}

/** What to say when the name says a binary format and the bytes are not that format. */
const PROMISED_BINARY: Record<string, string> = {
  pdf: 'The PDF file is damaged or not a PDF.',
  docx: 'The DOCX file is damaged or not a Word document.',
  png: 'The PNG image is damaged or not a PNG.',
  jpg: 'The JPEG image is damaged or not a JPEG.',
  jpeg: 'The JPEG image is damaged or not a JPEG.',
};

/** Office files are ZIP archives: the part names tell them apart (they are stored uncompressed). */
function zipFormat(bytes: Buffer): FileFormat {
  // The main part is almost always word/document.xml; any word/ part with OOXML content types is Word.
  if (bytes.includes('word/document.xml') || (bytes.includes('[Content_Types].xml') && bytes.includes('word/'))) return 'docx';
  if (bytes.includes('xl/workbook.xml')) throw new ParseError('Excel spreadsheets (XLSX) are not supported.');
  if (bytes.includes('ppt/presentation.xml')) throw new ParseError('PowerPoint presentations (PPTX) are not supported.');
  if (bytes.includes('application/vnd.oasis.opendocument')) {
    throw new ParseError('OpenDocument files are not supported; save the document as DOCX or PDF.');
  }
  throw new ParseError('ZIP archives are not supported (of ZIP-based formats, only DOCX is).');
}

const BINARY_SIGNATURES: [number[], string][] = [
  [[0x47, 0x49, 0x46, 0x38], 'GIF images are not supported (PNG and JPEG are).'],
  [[0x49, 0x49, 0x2a, 0x00], 'TIFF images are not supported (PNG and JPEG are).'],
  [[0x4d, 0x4d, 0x00, 0x2a], 'TIFF images are not supported (PNG and JPEG are).'],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'Legacy Office files (.doc, .xls, .ppt) are not supported; save the document as DOCX or PDF.'],
  [[0x1f, 0x8b], 'Compressed (gzip) files are not supported.'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], 'Compressed (7z) archives are not supported.'],
  [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], 'Compressed (RAR) archives are not supported.'],
];

function unsupportedBinary(bytes: Buffer): string | undefined {
  for (const [signature, reason] of BINARY_SIGNATURES) if (startsWith(bytes, signature)) return reason;
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'WebP images are not supported (PNG and JPEG are).';
  }
  return undefined;
}

/** A doctype or <html> first, possibly after a BOM, whitespace, comments or an XML declaration. */
const HTML_START = /^(?:\ufeff)?(?:\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*<(?:!doctype\s+html|html[\s>])/i;

function looksLikeHtml(bytes: Buffer): boolean {
  return HTML_START.test(bytes.toString('latin1', 0, 2048));
}

/** The encoding an HTML file declares in its first bytes, as browsers look for it. */
export function declaredHtmlEncoding(bytes: Buffer): string | undefined {
  const head = bytes.toString('latin1', 0, 2048);
  return head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i)?.[1]?.toLowerCase();
}

function startsWith(bytes: Buffer, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}
