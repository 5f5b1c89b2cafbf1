import { getResolvedPDFJS } from 'unpdf';
import { ParseError } from './parse-error.ts';

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

/**
 * The text of each PDF page, in order (a page without text is an empty string). Its time and
 * memory are bounded by the process it runs in (parse-pool.ts): pdf.js works synchronously for
 * long stretches, which no timer here could interrupt.
 */
export async function parsePdf(bytes: Buffer): Promise<string[]> {
  let loading: LoadingTask | undefined;
  try {
    const { getDocument } = await getResolvedPDFJS();
    // pdf.js takes ownership of the bytes it is given, so it gets a copy, not the caller's Buffer.
    loading = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: true, verbosity: 0 });
    const pdf: PdfDocument = await loading.promise;
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) pages.push(await pageText(pdf, number));
    return pages;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new ParseError('The PDF is password-protected.');
    }
    throw new ParseError('The PDF file is damaged or not a PDF.');
  } finally {
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
