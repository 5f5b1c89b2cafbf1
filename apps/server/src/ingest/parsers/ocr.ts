/**
 * Optical character recognition of PNG and JPEG images with tesseract.js, fully offline: the
 * engine (tesseract.js-core) is loaded from node_modules by tesseract.js's Node worker, and the
 * English model comes from the @tesseract.js-data/eng package, never from a CDN.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ParseError } from './parse-error.ts';

/** An image that takes longer than this is given up, and the worker recreated (it may be wedged). */
export const OCR_TIMEOUT_MS = 60_000;
/** Bigger images would exhaust the engine's WebAssembly memory; about an A4 page at 600 dpi. */
export const MAX_OCR_PIXELS = 40_000_000;

const require = createRequire(import.meta.url);
/** LSTM-only model (the engine mode used below), the smaller of the two the package ships. */
const ENGLISH_MODEL_DIR = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let worker: Promise<Worker> | undefined;
/** One recognition at a time: the worker is single-threaded, and a timeout must measure our own job only. */
let queue: Promise<unknown> = Promise.resolve();

/** Creation loads the model (seconds), so one worker is made on first use and reused. */
function getWorker(): Promise<Worker> {
  worker ??= createWorker('eng', OEM.LSTM_ONLY, {
    langPath: ENGLISH_MODEL_DIR,
    gzip: true,
    // The default cache writes eng.traineddata into the working directory.
    cacheMethod: 'none',
    // Without a handler, tesseract.js rethrows a failed job inside a message listener, which
    // would crash the process; the job's promise is rejected anyway.
    errorHandler: () => {},
  }).catch((error: unknown) => {
    worker = undefined;
    throw error;
  });
  return worker;
}

export async function closeOcr(): Promise<void> {
  const current = worker;
  worker = undefined;
  if (current) await current.then((w) => w.terminate()).catch(() => {});
}

/**
 * The text of an image, or a ParseError with the reason (damaged, too large, too slow). Only an
 * engine that cannot start at all (a broken installation, not the user's file) throws a plain Error.
 */
export function recognizeImage(bytes: Buffer, format: ImageFormat, timeoutMs = OCR_TIMEOUT_MS): Promise<string> {
  const job = queue.then(() => recognizeNow(bytes, format, timeoutMs));
  queue = job.catch(() => {});
  return job;
}

export type ImageFormat = 'PNG' | 'JPEG';

/** The server's fault, not the file's: the document should not be marked as a bad file for it. */
export class OcrEngineUnavailable extends Error {
  constructor(cause: unknown) {
    super(`The OCR engine could not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

async function recognizeNow(bytes: Buffer, format: ImageFormat, timeoutMs: number): Promise<string> {
  const size = imageSize(bytes, format);
  if (!size) throw new ParseError(`The ${format} image is damaged or incomplete.`);
  if (size.width * size.height > MAX_OCR_PIXELS) {
    throw new ParseError(
      `The image is too large for OCR (${size.width}×${size.height} pixels; at most ${MAX_OCR_PIXELS / 1_000_000} megapixels).`,
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ParseError(`OCR did not finish within ${timeoutMs / 1000} seconds.`)), timeoutMs);
  });
  try {
    const engine = await Promise.race([
      getWorker().catch((error: unknown) => {
        throw new OcrEngineUnavailable(error);
      }),
      timeout,
    ]);
    const result = await Promise.race([engine.recognize(bytes), timeout]);
    return result.data.text;
  } catch (error) {
    // After a timeout the worker may still be busy; after a decoding failure the engine has
    // aborted inside WebAssembly. Either way, start afresh next time.
    await closeOcr();
    if (error instanceof ParseError || error instanceof OcrEngineUnavailable) throw error;
    throw new ParseError(`The ${format} image is damaged or could not be decoded.`);
  } finally {
    clearTimeout(timer);
  }
}

/** Width and height from the image header, or undefined when the header is not there. */
export function imageSize(bytes: Buffer, format: ImageFormat): { width: number; height: number } | undefined {
  return format === 'PNG' ? pngSize(bytes) : jpegSize(bytes);
}

function pngSize(bytes: Buffer) {
  // Signature (8 bytes), then the IHDR chunk: length (4), type (4), width (4), height (4).
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function jpegSize(bytes: Buffer) {
  // Walk the marker segments up to a start-of-frame (SOF0..SOF15 except DHT, JPG and DAC).
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    const length = bytes.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = bytes.readUInt16BE(i + 5);
      const width = bytes.readUInt16BE(i + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (length < 2) return undefined;
    i += 2 + length;
  }
  return undefined;
}
