import { getDocumentProxy } from 'unpdf';
import { ParseError } from './parse-error.ts';

/** pdf.js yields between steps, so a pathological file is abandoned after this long. */
export const PDF_TIMEOUT_MS = 120_000;

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The text of each PDF page, in order (a page without text is an empty string). */
export async function parsePdf(bytes: Buffer, timeoutMs = PDF_TIMEOUT_MS): Promise<string[]> {
  let pdf: PdfDocument | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ParseError(`Reading the PDF took longer than ${timeoutMs / 1000} seconds.`)), timeoutMs);
  });
  try {
    // pdf.js takes ownership of the bytes it is given, so it gets a copy, not the caller's Buffer.
    const opening = getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    opening.catch(() => {}); // may reject after a timeout, when nobody awaits it any more
    pdf = await Promise.race([opening, timeout]);
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      pages.push(await Promise.race([pageText(pdf, number), timeout]));
    }
    return pages;
  } catch (error) {
    if (error instanceof ParseError) throw error;
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new ParseError('The PDF is password-protected.');
    }
    throw new ParseError('The PDF file is damaged or not a PDF.');
  } finally {
    clearTimeout(timer);
    await pdf?.destroy().catch(() => {});
  }
}

async function pageText(pdf: PdfDocument, number: number): Promise<string> {
  const page = await pdf.getPage(number);
  const content = await page.getTextContent();
  const parts: string[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue; // marked-content markers carry no text
    parts.push(item.str);
    if (item.hasEOL) parts.push('\n');
  }
  page.cleanup();
  return parts.join('');
}
