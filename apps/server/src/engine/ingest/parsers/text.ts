import { ParseError } from './parse-error.ts';

/**
 * Decodes a text file: UTF-8 (with or without BOM), or UTF-16 when a BOM says so, or the legacy
 * encoding an HTML file declares. Refuses what is not text, with a reason users can act on.
 */
export function decodeText(bytes: Buffer, declaredEncoding?: string): string {
  let text: string | undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = decodeStrict(bytes.subarray(2), 'utf-16le');
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = decodeStrict(bytes.subarray(2), 'utf-16be');
  else {
    const withoutBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    text = decodeStrict(withoutBom, 'utf-8') ?? (declaredEncoding ? decodeStrict(withoutBom, declaredEncoding) : undefined);
  }
  if (text === undefined) {
    throw new ParseError('The file is not valid UTF-8 text, nor a supported document type (PDF, DOCX, PNG, JPEG, HTML, Markdown or plain text).');
  }
  if (looksBinary(text)) {
    throw new ParseError('The file looks like binary data, not text, and is not a supported document type (PDF, DOCX, PNG, JPEG, HTML, Markdown or plain text).');
  }
  return text;
}

function decodeStrict(bytes: Uint8Array, encoding: string): string | undefined {
  if (WINDOWS_1252_LABELS.has(encoding.toLowerCase())) return decodeWindows1252(bytes);
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined; // invalid bytes for the encoding, or an encoding this runtime does not know
  }
}

/** Labels that mean windows-1252 (WHATWG Encoding), the usual declared legacy encoding of web pages. */
const WINDOWS_1252_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252', 'iso-8859-1', 'iso8859-1', 'latin1', 'l1', 'us-ascii', 'ascii']);
/** Characters of bytes 0x80..0x9F in windows-1252 (the other bytes are Latin-1). */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** Node's TextDecoder decodes windows-1252 as Latin-1 (0x80 is not "€"), hence this. */
function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}

/** Real text has no NUL and very few control characters (tab, line breaks and form feed aside). */
function looksBinary(text: string): boolean {
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) || c === 0x7f) controls++;
  }
  return controls > 8 && controls > text.length / 100;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Makes extracted text storable as it is: no NUL (PostgreSQL text refuses it) and no lone
 * surrogate (UTF-8 encoding would turn it into U+FFFD, and offsets would no longer match).
 */
export function storableText(text: string): string {
  return text.replace(/\u0000/g, '').replace(LONE_SURROGATE, '\ufffd');
}

export function isBlank(text: string): boolean {
  return !/\S/.test(text);
}
