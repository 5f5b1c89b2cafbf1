/**
 * Optical character recognition of PNG and JPEG images with tesseract.js, fully offline: the
 * engine (tesseract.js-core WebAssembly) is loaded from node_modules by tesseract.js's Node worker
 * thread (its `corePath` option only matters in browsers), and the English model is read from the
 * @tesseract.js-data/eng package, never from a CDN.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ParseError } from './parse-error.ts';

/** Reading one image longer than this is given up, and the worker recreated (it may be wedged). */
export const OCR_TIMEOUT_MS = 60_000;
/** Starting the worker (loading the model) takes a second or two; this long means it is broken. */
export const OCR_START_TIMEOUT_MS = 60_000;
/** Bigger images would exhaust the engine's WebAssembly memory; about an A4 page at 600 dpi. */
export const MAX_OCR_PIXELS = 40_000_000;

const require = createRequire(import.meta.url);
/** LSTM-only model (the engine mode used below), the smaller of the two the package ships. */
const ENGLISH_MODEL_DIR = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

export type ImageFormat = 'PNG' | 'JPEG';

/** The OCR engine could not start: a broken installation, not a bad file. */
export class OcrEngineUnavailable extends Error {
  constructor(cause: unknown) {
    super(`The OCR engine could not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** close() was called while this image waited or was being read (shutdown): worth a retry. */
export class OcrStopped extends Error {
  constructor() {
    super('OCR was stopped before the image was read.');
  }
}

/** The tesseract worker, and a way to fail at once every job waiting on it when it is stopped. */
interface Engine {
  worker: Promise<Worker>;
  stopped: Promise<never>;
  stop: () => void;
}

/** A process's OCR: one tesseract worker, made on first use (loading the model is slow) and reused. */
export class Ocr {
  #engine: Engine | undefined;
  /** One recognition at a time: the worker is single-threaded, and a timeout must measure our own job only. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Counts close() calls, so that images queued before one are not read by a new worker. */
  #closings = 0;

  /**
   * The text of an image, or a ParseError with the reason (damaged, too large, too slow). Failures
   * that are not the file's fault throw other errors: OcrEngineUnavailable, OcrStopped.
   */
  recognize(bytes: Buffer, format: ImageFormat, timeoutMs = OCR_TIMEOUT_MS): Promise<string> {
    const closingsAtRequest = this.#closings;
    const job = this.#queue.then(() => {
      if (this.#closings !== closingsAtRequest) throw new OcrStopped();
      return this.#recognizeNow(bytes, format, timeoutMs);
    });
    this.#queue = job.catch(() => {});
    return job;
  }

  /** Terminates the worker thread (it keeps the process alive); call on shutdown and after tests. */
  async close(): Promise<void> {
    this.#closings++;
    if (this.#engine) await this.#discard(this.#engine);
  }

  async #recognizeNow(bytes: Buffer, format: ImageFormat, timeoutMs: number): Promise<string> {
    const size = imageSize(bytes, format);
    if (!size) throw new ParseError(`The ${format} image is damaged or incomplete.`);
    if (size.width * size.height > MAX_OCR_PIXELS) {
      throw new ParseError(
        `The image is too large for OCR (${size.width}×${size.height} pixels; at most ${MAX_OCR_PIXELS / 1_000_000} megapixels).`,
      );
    }
    const current = this.#current();
    let worker: Worker;
    try {
      const late = () => new Error(`no worker after ${OCR_START_TIMEOUT_MS / 1000} seconds`);
      worker = await within(current.worker, OCR_START_TIMEOUT_MS, current.stopped, late);
    } catch (error) {
      if (error instanceof OcrStopped) throw error;
      void this.#discard(current);
      throw new OcrEngineUnavailable(error);
    }
    try {
      const late = () => new ParseError(`OCR did not finish within ${timeoutMs / 1000} seconds.`);
      const result = await within(worker.recognize(bytes), timeoutMs, current.stopped, late);
      return result.data.text;
    } catch (error) {
      if (error instanceof OcrStopped) throw error;
      // After a timeout the worker may still be busy; after a decoding failure the engine has
      // aborted inside WebAssembly. Either way, start afresh next time.
      void this.#discard(current);
      if (error instanceof ParseError) throw error;
      throw new ParseError(`The ${format} image is damaged or could not be decoded.`);
    }
  }

  /** The worker in use, or a new one. */
  #current(): Engine {
    if (this.#engine) return this.#engine;
    let stop = () => {};
    const stopped = new Promise<never>((_, reject) => {
      stop = () => reject(new OcrStopped());
    });
    stopped.catch(() => {}); // nobody may be waiting when it is stopped
    return (this.#engine = { worker: startWorker(), stopped, stop });
  }

  /** Forgets an engine, fails the jobs waiting on it, and terminates its thread once it exists. */
  #discard(stale: Engine): Promise<void> {
    if (this.#engine === stale) this.#engine = undefined;
    stale.stop();
    return stale.worker.then(
      async (w) => {
        await w.terminate();
      },
      () => {},
    );
  }
}

/**
 * Created without a language, then given one: when the model fails to load, tesseract.js's
 * createWorker('eng') never settles and keeps its thread out of reach, whereas reinitialize()
 * rejects and leaves the worker in hand to terminate.
 */
async function startWorker(): Promise<Worker> {
  const worker = await createWorker([], OEM.LSTM_ONLY, {
    langPath: ENGLISH_MODEL_DIR,
    gzip: true,
    // The default cache writes eng.traineddata into the working directory.
    cacheMethod: 'none',
    // Without a handler, tesseract.js rethrows a failed job inside a message listener, which
    // would crash the process; the job's promise is rejected anyway.
    errorHandler: () => {},
  });
  try {
    await worker.reinitialize('eng', OEM.LSTM_ONLY);
    return worker;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
}

/** The promise's value, unless `stopped` rejects first or `ms` pass (then the error made by `late`). */
async function within<T>(promise: Promise<T>, ms: number, stopped: Promise<never>, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([promise, stopped, deadline]);
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
