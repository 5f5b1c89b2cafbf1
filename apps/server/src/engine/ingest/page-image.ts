import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import { detectFormat } from './parsers/detect.ts';
import { ParseError } from './parsers/parse-error.ts';

/**
 * A page's JPEG: a PDF page drawn by pdf.js on a Skia canvas (@napi-rs/canvas, prebuilt for each
 * platform), or an uploaded image (its one page) as it is, re-encoded when it is not a JPEG.
 */

/** Rendered pages are this wide (about 150 dpi for A4 and Letter), never scaled above 2x. */
export const PAGE_IMAGE_WIDTH = 1240;
const JPEG_QUALITY = 85;

const canvasModule = () => import('@napi-rs/canvas');

// pdf.js 5 hands font data over with ArrayBuffer.prototype.transferToFixedLength (Node 21+);
// on Node 20 it would skip every font and draw no text. A copy does what pdf.js needs.
if (!('transferToFixedLength' in ArrayBuffer.prototype)) {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length = this.byteLength) {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    },
  });
}

/**
 * The 14 standard PDF fonts (Helvetica, Times ...) are not embedded in most files: pdf.js draws
 * them from the font files pdfjs-dist ships (the version unpdf bundles), else it draws no text.
 */
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Whether a document's pages have images: PDFs and images do. Decided from the uploaded bytes. */
export function hasPageImages(bytes: Buffer, filename?: string): boolean {
  try {
    const format = detectFormat(bytes, filename);
    return format === 'pdf' || format === 'png' || format === 'jpeg';
  } catch (error) {
    if (error instanceof ParseError) return false;
    throw error;
  }
}

/** The JPEG of one page (0-based) of an uploaded file, or null when that page has no image. */
export async function renderPageImage(bytes: Buffer, pageIndex: number, filename?: string): Promise<Buffer | null> {
  if (!hasPageImages(bytes, filename)) return null;
  const format = detectFormat(bytes, filename);
  if (format === 'jpeg') return pageIndex === 0 ? bytes : null;
  if (format === 'png') return pageIndex === 0 ? pngToJpeg(bytes) : null;
  return renderPdfPage(bytes, pageIndex);
}

async function pngToJpeg(bytes: Buffer): Promise<Buffer> {
  const { createCanvas, loadImage } = await canvasModule();
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  // JPEG has no transparency: what was transparent becomes white, as on paper.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, image.width, image.height);
  context.drawImage(image, 0, 0);
  return canvas.encode('jpeg', JPEG_QUALITY);
}

async function renderPdfPage(bytes: Buffer, pageIndex: number): Promise<Buffer | null> {
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasModule);
  // pdf.js takes ownership of the bytes it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    CanvasFactory,
    standardFontDataUrl: STANDARD_FONTS,
    // No FontFace API in Node: glyphs are drawn as paths from the font files.
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  try {
    if (pageIndex < 0 || pageIndex >= pdf.numPages) return null;
    const page = await pdf.getPage(pageIndex + 1);
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: Math.min(2, PAGE_IMAGE_WIDTH / natural.width) });
    const { canvas, context } = new CanvasFactory().create(Math.ceil(viewport.width), Math.ceil(viewport.height)) as {
      canvas: import('@napi-rs/canvas').Canvas;
      context: import('@napi-rs/canvas').SKRSContext2D;
    };
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    page.cleanup();
    return await canvas.encode('jpeg', JPEG_QUALITY);
  } finally {
    await pdf.destroy().catch(() => {});
  }
}
