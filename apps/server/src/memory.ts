import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's heap flags for the threads this process starts, set once at start, before any thread (the
 * flags are process-wide, and a thread's heap is sized when it starts).
 *
 * `--expose-gc`: bounded memory after large documents. V8 collects a heap when its thread
 * allocates; a thread that falls idle keeps its garbage. An ingestion thread done with a large
 * document, and the HTTP thread done with its request body, would keep that garbage while the next
 * large document is processed elsewhere, so concurrent large uploads would hold far more memory
 * than one at a time needs. So the thread that has just finished with a large document or body
 * collects at once (collectGarbage).
 *
 * `--max-semi-space-size` cleared: the server's HTTP thread runs with a large young generation
 * (`npm start` passes --max-semi-space-size=64, scripts/run-entry.mjs): a request's garbage dies
 * young, and collecting it less often leaves more of the thread to searches. Left set, it would
 * size every thread started afterwards too, the ingestion threads among them (a young generation
 * of up to 192 MB each instead of 48), which raises the memory of concurrent large uploads for no
 * gain (`N=8 npx tsx bench/large-probe.ts` measures it). Threads take V8's default, whatever
 * NODE_OPTIONS gave.
 */
export function configureThreadHeaps(): void {
  setFlagsFromString('--expose-gc');
  setFlagsFromString('--max-semi-space-size=0');
}

/**
 * Text this long leaves enough garbage to collect between a document's granularities when it is
 * indexed (ingestion's large documents start at 4 MB); a smaller one's would cost a collection for little.
 */
export const COLLECT_AFTER_CHARS = 4 << 20;

let collector: (() => void) | null | undefined;

/** A full collection on this thread, when the process exposed the collector (else nothing). */
export function collectGarbage(): void {
  if (collector === undefined) {
    const exposed = (globalThis as { gc?: unknown }).gc ?? runInNewContext('typeof gc === "function" ? gc : null');
    collector = typeof exposed === 'function' ? (exposed as () => void) : null;
  }
  collector?.();
}
