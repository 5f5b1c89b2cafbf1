import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type SiftProcess, startServer } from './cluster.ts';
import { type Harness, startHarness } from './harness.ts';
import { descendants, pdfBomb, residentMb, treeResidentMb } from './pdf-bomb.ts';

/**
 * A PDF bomb (1 MB whose content stream inflates to 1 GB) uploaded to a real server (`src/main.ts`,
 * two ingestion threads, the PDF timeout set to 25 s): it ends `parsing_failed` with the reason,
 * a PDF uploaded after it is indexed, the server with its parse
 * processes stays under 1.5 GB of RSS (read from /proc), and SIGTERM during a bomb's parse ends
 * the server cleanly and its parse processes with it.
 */
const twoPages = readFileSync(join(import.meta.dirname, 'fixtures', 'ingest', 'two-pages.pdf')).toString('base64');
let h: Harness;
let server: SiftProcess;
let apiKey: string;
let bomb: string;
beforeAll(async () => {
  h = await startHarness();
  ({ apiKey } = await bootstrap(h.database, h.keyring, { email: 'bomb@example.com', name: 'Bomb', organizationName: 'Bomb' }));
  // pdf.js alone takes over half a minute on it, growing past 1.2 GB (2 GB it gives up on at once).
  bomb = (await pdfBomb()).toString('base64');
  server = await startBombServer(25);
}, 120_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await h?.close();
});

/** A server on the harness's data folder, two ingestion threads, a PDF's parse stopped after `timeoutS` (and past `memoryMb`). */
const startBombServer = (timeoutS: number, memoryMb = 768) =>
  startServer(
    {
      SIFT_SECRET: h.config.secret,
      SIFT_INGEST_WORKERS: '1',
      SIFT_INGEST_THREADS: '2',
      SIFT_PARSE_TIMEOUT_S: String(timeoutS),
      SIFT_PARSE_MEMORY_MB: String(memoryMb),
      ...(h.config.databaseUrl ? { DATABASE_URL: h.config.databaseUrl } : {}),
    },
    h.config.dataDir,
  );

const call = async (path: string, body: unknown) => {
  const response = await fetch(`${server.url}/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const upload = (path: string, base64: string) => call('/documents/add-document', { collection_name: 'files', path, content: { type: 'auto', base64_data: base64 } });
const documentRow = (path: string) => h.database.db.selectFrom('documents').select(['index_status', 'error']).where('path', '=', path).executeTakeFirstOrThrow();
async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 100));
}

test('a PDF bomb ends parsing_failed with the reason, the PDF uploaded after it is indexed, and the server stays under 1.5 GB', { timeout: 180_000 }, async () => {
  let peakMb = 0;
  const sampling = setInterval(() => (peakMb = Math.max(peakMb, treeResidentMb(server.child.pid!))), 100);
  try {
    expect((await call('/collections/add-collection', { collection_name: 'files' })).status).toBe(201);
    expect((await upload('bomb.pdf', bomb)).status).toBe(201);
    await until(async () => (await documentRow('bomb.pdf')).index_status === 'parsing');
    expect((await upload('next.pdf', twoPages)).status).toBe(201);
    await until(async () => !['not_parsed', 'parsing', 'indexing'].includes((await documentRow('next.pdf')).index_status));
    expect(await documentRow('next.pdf')).toEqual({ index_status: 'indexed', error: null });
    await until(async () => (await documentRow('bomb.pdf')).index_status !== 'parsing');
    // Whichever bound it reaches first (the memory cap on a fast machine, the timeout on a busy one).
    expect(await documentRow('bomb.pdf')).toEqual({ index_status: 'parsing_failed', error: expect.stringMatching(/^Reading the PDF (took longer than 25 seconds|needed more than 768 MB of memory)\.$/) });
  } finally {
    clearInterval(sampling);
  }
  expect(peakMb).toBeLessThan(1536);
  const search = await call('/queries/top-snippets', { collection_name: 'files', query: 'lazy dog', k: 3 });
  expect(search.body.results).toEqual([expect.objectContaining({ path: 'next.pdf' })]);
});

test('SIGTERM while a bomb is being parsed: the server drains and exits 0, and its parse processes end with it', { timeout: 120_000 }, async () => {
  // The parse must still be running when the stop's 5 s grace ends: the bomb can grow past 768 MB
  // in it, or a busy machine reach the 25 s timeout (the document then fails, rightly), so this
  // server's bounds are wider.
  expect(await server.stop('SIGTERM')).toBe(0);
  server = await startBombServer(120, 1400);
  expect((await upload('bomb-2.pdf', bomb)).status).toBe(201);
  const parsers = () => descendants(server.child.pid!).filter((process) => process.commandLine.includes('parse-child.ts'));
  await until(() => parsers().some((process) => residentMb(process.pid) > 150));
  const pids = parsers().map((process) => process.pid);
  expect(await server.stop('SIGTERM')).toBe(0);
  for (let i = 0; i < 100 && pids.some((pid) => residentMb(pid) > 0); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(pids.filter((pid) => residentMb(pid) > 0)).toEqual([]);
  // Handed back to the queue, not failed: another server will read it.
  expect(await documentRow('bomb-2.pdf')).toEqual({ index_status: 'not_parsed', error: null });
});
