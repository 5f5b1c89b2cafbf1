import mammoth from 'mammoth';
import { ParseError } from './parse-error.ts';

/** The raw text of a Word document (paragraphs separated by blank lines), as one page. */
export async function parseDocx(bytes: Buffer): Promise<string> {
  try {
    const result = await mammoth.extractRawText({ buffer: bytes });
    return result.value;
  } catch {
    throw new ParseError('The DOCX file is damaged or not a Word document.');
  }
}
