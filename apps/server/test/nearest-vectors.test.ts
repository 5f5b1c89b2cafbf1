import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasNearestIndex, INDEXED_FROM, nearestStatement, searchBreadth } from '../src/engine/search/postgres-hnsw.ts';
import { searchDirectory } from '../src/engine/search/sqlite-file.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Thousands of vectors in one collection: the pages nearest a query (which shares no word with
 * them, so the ranking is the vectors' alone) are the ones an exact computation finds, whether
 * the backend reads them exactly or through an approximate index (PostgreSQL's HNSW, which the
 * planner must take; SQLite's usearch index, whose files upkeep writes beside the collection's
 * search file). The stand-in embedder gives each text a pseudo-random vector of its hash.
 */
const DIMENSIONS = 16;

function textVector(text: string): number[] {
  const seed = createHash('sha256').update(text).digest();
  return Array.from({ length: DIMENSIONS }, (_, i) => seed.readInt16LE(i * 2) / 32768);
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

async function startEmbeddings(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] };
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: textVector(text) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Documents of many short pages, each page words no query shares: enough pages (and fine snippets) for PostgreSQL's index. */
const PAGES = 1000;
const DOCUMENTS = Math.ceil(INDEXED_FROM / PAGES) + 1;
const pageText = (document: number, page: number) => `item${document}x${page} alpha${(page * 7) % 13} beta${(page * 11) % 17} gamma${document}`;

describe('a collection with thousands of vectors', () => {
  let embeddings: Awaited<ReturnType<typeof startEmbeddings>>;
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  // SQLite: a data folder of the test's own, so a second server can open it after the first.
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-nearest-'));
  const env = (model: string) => ({ SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: embeddings.url, SIFT_EMBEDDING_MODEL: model, SIFT_DATA_DIR: dataDir });
  const deleted = new Set<string>();

  beforeAll(async () => {
    embeddings = await startEmbeddings();
    h = await startHarness(env('hashed'));
    f = await providerFixtures(h);
    await h.call('/v1/collections/add-collection', { collection_name: 'big' }, f.keyA);
    for (let document = 0; document < DOCUMENTS; document++) {
      const pages = Array.from({ length: PAGES }, (_, page) => pageText(document, page));
      const added = await h.call('/v1/documents/add-document', { collection_name: 'big', path: `doc${document}.txt`, content: { type: 'text-pages', pages } }, f.keyA);
      expect(added.status).toBe(201);
    }
    await f.workers.idle();
  }, 120_000);
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
    await embeddings.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The top 10 pages of each query are those an exact computation over the pages left finds. */
  const expectExactTop10 = async () => {
    const pages = Array.from({ length: DOCUMENTS }, (_, document) => Array.from({ length: PAGES }, (_, page) => ({ path: `doc${document}.txt`, page, text: pageText(document, page) })))
      .flat()
      .filter((page) => !deleted.has(page.path));
    for (const query of ['zebra', 'quantum', 'harbour lights', 'nothing in common']) {
      const vector = textVector(query);
      const exact = pages
        .map((page) => ({ ...page, similarity: cosine(vector, textVector(page.text)) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 10)
        .map((page) => [page.path, page.page]);
      const response = await h.call('/v1/queries/top-pages', { collection_name: 'big', query, k: 10 }, f.keyA);
      expect(response.status).toBe(200);
      expect(response.body.results.map((result: { path: string; page_index: number }) => [result.path, result.page_index])).toEqual(exact);
    }
  };

  test('answers the same top 10 pages as an exact scan', expectExactTop10);

  const onSqlite = process.env.SIFT_TEST_DIALECT !== 'postgres';
  /** The nearest-rows index files of the collection's search directory, as `granularity.embedder-hash.extension`. */
  const annFiles = () =>
    readdirSync(searchDirectory(h.database.sqlitePath!))
      .filter((name) => /\.(usearch|json)$/.test(name))
      .map((name) => name.slice(name.indexOf('.') + 1))
      .sort();

  test.runIf(onSqlite)('SQLite reads them through a usearch index of each granularity with enough rows, made by idle upkeep', async () => {
    // Only the pages have enough rows for one; the documents and snippets are scanned exactly.
    await expect.poll(() => annFiles().map((name) => name.replace(/\.[0-9a-f]{12}\./, '.')), { timeout: 60_000, interval: 200 }).toEqual(['pages.json', 'pages.usearch']);
    await expectExactTop10();
  }, 90_000);

  test.runIf(onSqlite)('SQLite: rows deleted since the index was made drop out of the results', async () => {
    const before = annFiles();
    // One document of eleven: the pages left are still enough for the next embedder's index.
    const gone = ['doc3.txt'];
    expect((await h.call('/v1/documents/delete-document', { collection_name: 'big', path: gone }, f.keyA)).status).toBe(200);
    for (const path of gone) deleted.add(path);
    await f.workers.idle();
    // The index still holds their rows (too few deleted to make it anew): they are joined away.
    expect(annFiles()).toEqual(before);
    await expectExactTop10();
  });

  test.runIf(onSqlite)('SQLite: another embedder gets indexes of its own, and the replaced one’s go', async () => {
    const before = annFiles();
    await f.workers.stop();
    await h.close();
    h = await startHarness(env('hashed-again'));
    f = { ...f, workers: await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 }) };
    // Re-embedded (the stand-in gives the same vectors under another name), then indexed anew.
    await expect.poll(() => annFiles().filter((name) => !before.includes(name)).length, { timeout: 60_000, interval: 200 }).toBe(2);
    expect(annFiles().filter((name) => before.includes(name))).toEqual([]);
    await expectExactTop10();
  }, 90_000);

  const onPostgres = process.env.SIFT_TEST_DIALECT === 'postgres';
  const indexes = async () =>
    (await sql<{ name: string }>`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'i' and relname ~ '^search_vectors_[0-9]+_' order by relname`.execute(h.database.db)).rows.map(
      (row) => row.name,
    );

  test.runIf(onPostgres)('PostgreSQL reads them through the HNSW index of the collection’s granularity', async () => {
    // Only the pages have enough rows for one; the documents and snippets are scanned exactly.
    expect(await indexes()).toEqual([expect.stringMatching(/^search_vectors_\d+_1_/)]);
    const { db } = h.database;
    const { rows } = await sql<{ collection_id: string; embedder: string }>`select collection_id, embedder from search_vectors where granularity = 1 limit 1`.execute(db);
    const { collection_id: collectionId, embedder } = rows[0]!;
    const plan = await db.transaction().execute(async (trx) => {
      await searchBreadth(100).execute(trx);
      const statement = nearestStatement('public', collectionId, 1, { values: new Float32Array(textVector('zebra')), embedder }, 100, await hasNearestIndex(trx, collectionId, 1, embedder));
      return (await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(trx)).rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan using search_vectors_\d+_1_[0-9a-f]+ on search_vectors/);
  });

  test.runIf(onPostgres)('PostgreSQL: another embedder gets indexes of its own, and the replaced one’s go once it is unused', async () => {
    const before = await indexes();
    await f.workers.stop();
    await h.close();
    h = await startHarness({ ...env('hashed-again'), DATABASE_URL: h.config.databaseUrl! });
    f = { ...f, workers: await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 }) };
    // The new embedder's index of the pages, and no other.
    await expect.poll(async () => (await indexes()).map((name) => before.includes(name)), { timeout: 60_000, interval: 200 }).toEqual([false]);
  }, 90_000);

  test.runIf(onPostgres)('PostgreSQL drops the indexes with the collection', async () => {
    expect((await h.call('/v1/collections/delete-collection', { collection_name: 'big' }, f.keyA)).status).toBe(200);
    await f.workers.idle();
    await expect.poll(indexes, { timeout: 10_000 }).toEqual([]);
  });
});
