/**
 * Parsers run in child processes with hard bounds: a file's parse is killed when it outlives the
 * timeout or when its process's resident memory passes the cap. Worker threads were not enough:
 * V8's resourceLimits bound the JavaScript heap only, and pdf.js inflates a stream into typed
 * arrays outside it (a small PDF whose content stream inflates to gigabytes of zeros takes a
 * thread far past its heap limit), so the cap is read from /proc, per process, and enforced
 * by killing it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FileFormat } from './parsers/detect.ts';
import { ParseError } from './parsers/parse-error.ts';

export interface ParseLimits {
  /** Longest one file's parse may take, the start of its process included. */
  timeoutMs: number;
  /** Most resident memory one parse's process may hold. */
  memoryMb: number;
}

/** The bounds when the operator sets none (SIFT_PARSE_TIMEOUT_S, SIFT_PARSE_MEMORY_MB). */
export const DEFAULT_PARSE_LIMITS: ParseLimits = { timeoutMs: 120_000, memoryMb: 768 };

/** What a parse process is asked, and what it answers (parse-child.ts). */
export interface ParseRequest {
  bytes: Uint8Array;
  format: FileFormat;
}
export type ParseReply =
  | { ok: true; pages: string[]; ocrPages: number }
  | { ok: false; parseError: boolean; name: string; message: string };

/** The pool was closed (shutdown) before the file was read: not the file's fault, worth a retry. */
export class ParsingStopped extends Error {
  constructor() {
    super('Parsing was stopped before the file was read.');
    this.name = 'ParsingStopped';
  }
}

/** How often a running parse's memory is read. A bomb grows by tens of MB a second. */
const WATCH_MS = 100;
/** An idle process this long is ended: its memory goes back, and a burst of files reuses it meanwhile. */
const IDLE_MS = 5000;

const require = createRequire(import.meta.url);
const CHILD_ENTRY = fileURLToPath(new URL('./parse-child.ts', import.meta.url));
/** The loader `--import tsx` names, resolved here: the child's working directory may not find it. */
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;

const FORMAT_NAMES: Record<FileFormat, string> = { pdf: 'the PDF', docx: 'the DOCX document', png: 'the PNG image', jpeg: 'the JPEG image', html: 'the HTML page', text: 'the file' };

/**
 * At most `size` parses at once, each in a process of its own; further ones wait for a place.
 * Processes are reused while they stay within bounds, and killed (then replaced) when they do not.
 */
export class ParsePool {
  readonly #limits: ParseLimits;
  readonly #size: number;
  /** Idle processes, each with the timer that ends it. */
  readonly #idle = new Map<ChildProcess, NodeJS.Timeout>();
  readonly #running = new Set<(error: Error) => void>();
  readonly #waiting: Array<() => void> = [];
  #active = 0;
  #closed = false;

  constructor(limits: ParseLimits, size = Math.max(2, availableParallelism())) {
    this.#limits = limits;
    this.#size = size;
  }

  /** The pages of a file of a known format, read in a bounded process; a file over a bound is a ParseError. */
  async run(request: ParseRequest, signal?: AbortSignal): Promise<{ pages: string[]; ocrPages: number }> {
    signal?.throwIfAborted();
    await this.#takePlace(signal);
    try {
      if (this.#closed) throw new ParsingStopped();
      const child = this.#takeProcess();
      const reply = await this.#parseOn(child, request, signal);
      // It answered: it may parse again, whether the file was readable or not.
      this.#putBack(child);
      if (!reply.ok) throw replyError(reply);
      return { pages: reply.pages, ocrPages: reply.ocrPages };
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }

  /** Kills every parse process at once; parses in flight and waiting reject with ParsingStopped. */
  close(): void {
    this.#closed = true;
    for (const wake of this.#waiting.splice(0)) wake();
    for (const stop of [...this.#running]) stop(new ParsingStopped());
    for (const [child, timer] of this.#idle) {
      clearTimeout(timer);
      child.kill('SIGKILL');
    }
    this.#idle.clear();
  }

  async #takePlace(signal?: AbortSignal): Promise<void> {
    while (this.#active >= this.#size && !this.#closed) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          this.#waiting.splice(this.#waiting.indexOf(wake), 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', abort, { once: true });
        this.#waiting.push(wake);
      });
    }
    this.#active++;
  }

  #takeProcess(): ChildProcess {
    for (const [child, timer] of this.#idle) {
      clearTimeout(timer);
      this.#idle.delete(child);
      if (child.exitCode === null && child.signalCode === null) return child;
    }
    // The heap may grow past the cap, so that the cap, read from /proc, is what stops a parse with
    // its reason; V8's own limit stays a backstop.
    const child = spawn(process.execPath, ['--import', TSX_LOADER, `--max-old-space-size=${2 * this.#limits.memoryMb}`, CHILD_ENTRY], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    child.on('error', () => {}); // a failed spawn also exits, which the parse waiting on it sees
    return child;
  }

  #putBack(child: ChildProcess): void {
    if (this.#closed) return void child.kill('SIGKILL');
    const timer = setTimeout(() => {
      if (this.#idle.delete(child)) child.kill('SIGKILL');
    }, IDLE_MS);
    timer.unref();
    this.#idle.set(child, timer);
    // An idle process must not keep its owner alive.
    child.unref();
    child.channel?.unref();
  }

  /**
   * Sends the file and waits for the answer; the timeout, the memory cap, the signal and close()
   * kill the process and reject.
   */
  #parseOn(child: ChildProcess, request: ParseRequest, signal?: AbortSignal): Promise<ParseReply> {
    const { timeoutMs, memoryMb } = this.#limits;
    const what = FORMAT_NAMES[request.format];
    child.ref();
    child.channel?.ref();
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        signal?.removeEventListener('abort', onAbort);
        this.#running.delete(stop);
        child.off('message', onMessage);
        child.off('exit', onExit);
        outcome();
      };
      // Anything that ends a parse early ends its process: a parser cannot be interrupted otherwise.
      const stop = (error: Error) => {
        child.kill('SIGKILL');
        finish(() => reject(error));
      };
      const onMessage = (reply: ParseReply) => finish(() => resolve(reply));
      const onExit = () => finish(() => reject(new ParseError(`The parser stopped while reading ${what}: it ran out of memory or crashed.`)));
      const onAbort = () => stop(signal!.reason as Error);
      const timer = setTimeout(() => stop(new ParseError(`Reading ${what} took longer than ${timeoutMs / 1000} seconds.`)), timeoutMs);
      const watch = setInterval(() => {
        void residentMb(child.pid).then((mb) => {
          if (mb > memoryMb) stop(new ParseError(`Reading ${what} needed more than ${memoryMb} MB of memory.`));
        });
      }, WATCH_MS);
      this.#running.add(stop);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return onExit();
      child.send({ bytes: request.bytes, format: request.format } satisfies ParseRequest);
    });
  }
}

function replyError(reply: Extract<ParseReply, { ok: false }>): Error {
  if (reply.parseError) return new ParseError(reply.message);
  const error = new Error(reply.message);
  error.name = reply.name;
  return error;
}

/** The resident memory of a process in MB, from /proc (0 when it is gone or /proc is not there). */
async function residentMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : 0;
}
