import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createKeyring } from '../src/auth/keyring.ts';
import { openDatabase } from '../src/db/database.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type SiftProcess, startServer } from './cluster.ts';

/**
 * A real server process is killed with SIGKILL while it ingests, then started again on the same
 * data folder: every document must reach a final state (indexed, or failed with a reason).
 */
const SECRET = 'crash-secret-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'sift-crash-'));
const servers: SiftProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

/** A server with its own ingestion on the shared data folder; resolves once it serves (or fails with its output). */
async function startOnData(): Promise<SiftProcess> {
  const server = await startServer({ SIFT_INGEST_WORKERS: '1', SIFT_SECRET: SECRET, LOG_LEVEL: 'error', DATABASE_URL: '' }, dataDir);
  servers.push(server);
  return server;
}

test('a server killed with SIGKILL during ingestion brings every document to a final state after restart', { timeout: 180_000 }, async () => {
  const setup = await openDatabase({ dataDir });
  const { apiKey } = await bootstrap(setup, createKeyring(SECRET), { email: 'crash@example.com', name: 'Crash', organizationName: 'Crash' });
  await setup.destroy();

  let base = '';
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  const first = await startOnData();
  base = first.url;
  expect((await post('/collections/add-collection', { collection_name: 'crash' })).status).toBe(201);
  const total = 300;
  const text = (i: number) => `Document ${i}. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(300)}`;
  let added = 0;
  let next = 0;
  // Eight uploads in flight outrun the worker, so the kill lands in the middle of ingestion.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < total) {
        const i = next++;
        const content = i % 10 === 9 ? { type: 'auto', base64_data: Buffer.from(`%PDF-1.4 broken ${i}`).toString('base64') } : { type: 'text', text: text(i) };
        const response = await post('/documents/add-document', { collection_name: 'crash', path: `doc-${i}`, content });
        expect(response.status).toBe(201);
        added++;
      }
    }),
  );
  await first.stop('SIGKILL');

  // Straight from the database: documents were left waiting or in the worker's hands.
  const killed = await openDatabase({ dataDir });
  const unfinished = await killed.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('index_status', 'in', ['not_parsed', 'parsing', 'not_indexed', 'indexing'])
    .executeTakeFirstOrThrow();
  await killed.destroy();
  expect(Number(unfinished.count)).toBeGreaterThan(0);

  const second = await startOnData();
  base = second.url;
  let status: Record<string, number> = {};
  for (let i = 0; i < 600; i++) {
    status = (await post('/status/get-status', { collection_name: 'crash' })).body;
    if (status.num_indexed_documents + status.num_failed_documents === added) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(status).toMatchObject({ num_documents: added, num_parsing_documents: 0, num_indexing_documents: 0 });
  expect(status.num_failed_documents).toBe(total / 10); // the broken PDFs, and only them
  expect(status.num_indexed_documents).toBe(total - total / 10);
  const search = await post('/queries/top-snippets', { collection_name: 'crash', query: 'lorem ipsum', k: 5 });
  expect(search.body.results.length).toBe(5);
  expect(await second.stop('SIGTERM')).toBe(0);
});
