import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { createKeyring } from '../src/auth/keyring.ts';
import { openDatabase } from '../src/db/database.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';

/**
 * A real server process is killed with SIGKILL while it ingests, then started again on the same
 * data folder: every document must reach a final state (indexed, or failed with a reason).
 */
const SECRET = 'crash-secret-0123456789abcdef';
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'sift-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function startServer(port: number): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, SIFT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SIFT_SECRET: SECRET, LOG_LEVEL: 'error', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function waitUntilServing(base: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(`${base}/openapi.json`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('the server did not start');
}

test('a server killed with SIGKILL during ingestion brings every document to a final state after restart', { timeout: 180_000 }, async () => {
  const setup = await openDatabase({ dataDir });
  const { apiKey } = await bootstrap(setup, createKeyring(SECRET), { email: 'crash@example.com', name: 'Crash', organizationName: 'Crash' });
  await setup.destroy();

  const port = 21_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  const first = startServer(port);
  await waitUntilServing(base);
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
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));

  // Straight from the database: documents were left waiting or in the worker's hands.
  const killed = await openDatabase({ dataDir });
  const unfinished = await killed.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('index_status', 'in', ['not_parsed', 'parsing', 'not_indexed', 'indexing'])
    .executeTakeFirstOrThrow();
  await killed.destroy();
  expect(Number(unfinished.count)).toBeGreaterThan(0);

  const second = startServer(port);
  await waitUntilServing(base);
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
  second.kill('SIGTERM');
  await new Promise((resolve) => second.once('exit', resolve));
});
