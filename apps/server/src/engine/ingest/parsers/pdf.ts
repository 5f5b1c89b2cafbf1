import { getResolvedPDFJS } from 'unpdf';
import { ParseError } from './parse-error.ts';

/** pdf.js yields between steps, so a pathological file is abandoned after this long. */
export const PDF_TIMEOUT_MS = 120_000;

type PdfJs = Awaited<ReturnType<typeof getResolvedPDFJS>>;
type LoadingTask = ReturnType<PdfJs['getDocument']>;
type PdfDocument = Awaited<LoadingTask['promise']>;

/**
 * Whether a rejection nobody handled is one of pdf.js's own failures. Reading a damaged file,
 * pdf.js fetches page dictionaries ahead of need and may never await them (Catalog.getPageDict):
 * their failures come as unhandled rejections after parsePdf has already refused the file.
 */
export function isPdfJsFailure(reason: unknown): boolean {
  // By name: the bundle holds two copies of pdf.js's BaseException (its API's and its worker's),
  // and the one exported is not the one these failures come from.
  for (let type = reason instanceof Error ? reason.constructor : null; type; type = Object.getPrototypeOf(type)) {
    if (type.name === 'BaseException') return true;
  }
  return false;
}

/** The text of each PDF page, in order (a page without text is an empty string). */
export async function parsePdf(bytes: Buffer, timeoutMs = PDF_TIMEOUT_MS): Promise<string[]> {
  let loading: LoadingTask | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ParseError(`Reading the PDF took longer than ${timeoutMs / 1000} seconds.`)), timeoutMs);
  });
  try {
    const { getDocument } = await getResolvedPDFJS();
    // pdf.js takes ownership of the bytes it is given, so it gets a copy, not the caller's Buffer.
    loading = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: true, verbosity: 0 });
    const opening = loading.promise;
    opening.catch(() => {}); // may reject after a timeout, when nobody awaits it any more
    const pdf: PdfDocument = await Promise.race([opening, timeout]);
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
    // The loading task, not only a document it opened: a file that failed to open otherwise
    // left its worker-side document behind. (Its stray rejections still come: isPdfJsFailure.)
    await loading?.destroy().catch(() => {});
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
