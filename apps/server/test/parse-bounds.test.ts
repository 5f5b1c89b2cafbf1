import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import { ParseError } from '../src/engine/ingest/parse.ts';
import { ParsePool, ParsingStopped } from '../src/engine/ingest/parse-pool.ts';
import { parseProcesses, pdfBomb, residentMb } from './pdf-bomb.ts';

/**
 * The parse pool's bounds, on a PDF bomb (1 MB whose content stream inflates to 1 GB of zeros):
 * killed at the memory cap or at the timeout with the reason, other files parsed meanwhile, a
 * parse aborted at once, and no parse process left behind.
 */
const twoPages = readFileSync(join(import.meta.dirname, 'fixtures', 'ingest', 'two-pages.pdf'));
let bomb: Buffer;
let pool: ParsePool | undefined;
beforeAll(async () => {
  bomb = await pdfBomb();
}, 60_000);
afterEach(() => pool?.close());

/**
 * Resolves once every parse process holds under 300 MB: the pool rejects as soon as it has sent
 * SIGKILL, and a killed bomb's memory goes back to the system a moment later.
 */
async function bombReleased(): Promise<void> {
  await vi.waitFor(() => expect(parseProcesses().every((process) => residentMb(process.pid) < 300)).toBe(true), { timeout: 10_000 });
}

/** Resolves once one of this process's parse processes holds more than `mb` (the bomb is inflating). */
async function inflating(mb: number): Promise<void> {
  while (!parseProcesses().some((process) => residentMb(process.pid) > mb)) await new Promise((resolve) => setTimeout(resolve, 50));
}

test('a PDF bomb is killed at the memory cap with the reason', { timeout: 120_000 }, async () => {
  pool = new ParsePool({ timeoutMs: 600_000, memoryMb: 300 });
  await expect(pool.run({ bytes: bomb, format: 'pdf' })).rejects.toThrow(new ParseError('Reading the PDF needed more than 300 MB of memory.'));
  await bombReleased();
});

test('a PDF bomb is killed at the timeout with the reason, and the pool reads the next file', { timeout: 120_000 }, async () => {
  pool = new ParsePool({ timeoutMs: 3000, memoryMb: 4096 });
  await expect(pool.run({ bytes: bomb, format: 'pdf' })).rejects.toThrow(new ParseError('Reading the PDF took longer than 3 seconds.'));
  await bombReleased();
  pool.close();
  pool = new ParsePool({ timeoutMs: 60_000, memoryMb: 1024 });
  expect((await pool.run({ bytes: twoPages, format: 'pdf' })).pages).toHaveLength(2);
});

test('another PDF is read while a bomb is parsing; aborting the signal (the document was deleted) stops the bomb at once: its process is gone', { timeout: 120_000 }, async () => {
  pool = new ParsePool({ timeoutMs: 600_000, memoryMb: 4096 });
  const deleted = new AbortController();
  let bombSettled = false;
  const parsing = pool.run({ bytes: bomb, format: 'pdf' }, deleted.signal).finally(() => (bombSettled = true));
  await inflating(150);
  expect((await pool.run({ bytes: twoPages, format: 'pdf' })).pages[1]).toContain('jumps over the lazy dog');
  expect(bombSettled).toBe(false);
  const inflatingPids = parseProcesses()
    .filter((process) => residentMb(process.pid) > 150)
    .map((process) => process.pid);
  deleted.abort(new Error('the document was deleted'));
  await expect(parsing).rejects.toThrow('the document was deleted');
  // SIGKILL: gone once the kernel has reaped it, a moment after.
  for (let i = 0; i < 100 && parseProcesses().some((process) => inflatingPids.includes(process.pid)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(parseProcesses().filter((process) => inflatingPids.includes(process.pid))).toEqual([]);
  // A signal aborted before the parse starts: nothing runs.
  await expect(pool.run({ bytes: twoPages, format: 'pdf' }, deleted.signal)).rejects.toThrow('the document was deleted');
});

test('closing the pool stops parses in flight and waiting with ParsingStopped, and leaves no process', { timeout: 120_000 }, async () => {
  pool = new ParsePool({ timeoutMs: 600_000, memoryMb: 4096 }, 1);
  const running = pool.run({ bytes: bomb, format: 'pdf' });
  const waiting = pool.run({ bytes: twoPages, format: 'pdf' });
  await inflating(150);
  pool.close();
  await expect(running).rejects.toBeInstanceOf(ParsingStopped);
  await expect(waiting).rejects.toBeInstanceOf(ParsingStopped);
  for (let i = 0; i < 100 && parseProcesses().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(parseProcesses()).toEqual([]);
});
