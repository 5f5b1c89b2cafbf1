import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nearestStatement, nearestTable, searchBreadth } from '../src/engine/search/postgres-hnsw.ts';
import { INDEXED_FROM } from '../src/engine/search/vectors.ts';
import { searchDirectory } from '../src/engine/search/sqlite-file.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { exactNearest, startEmbeddings, textVector } from './support/hashed-embeddings.ts';

/**
 * Thousands of vectors in one collection: the pages nearest a query (which shares no word with
 * them, so the ranking is the vectors' alone) are the ones an exact computation finds, whether
 * the backend reads them exactly or through an approximate index (PostgreSQL's HNSW, which the
 * planner must take; SQLite's hnswlib index, whose files upkeep writes beside the collection's
 * search file). The stand-in embedder gives each text a pseudo-random vector of its hash.
 */

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
      const exact = exactNearest(query, pages, 10).map((page) => [page.path, page.page]);
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
      .filter((name) => /\.(hnsw|json)$/.test(name))
      .map((name) => name.slice(name.indexOf('.') + 1))
      .sort();

  test.runIf(onSqlite)('SQLite reads them through an hnswlib index of each granularity with enough rows, made by idle upkeep', async () => {
    // Only the pages have enough rows for one; the documents and snippets are scanned exactly.
    await expect.poll(() => annFiles().map((name) => name.replace(/\.[0-9a-f]{12}\./, '.')), { timeout: 60_000, interval: 200 }).toEqual(['pages.hnsw', 'pages.json']);
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
    (await sql<{ name: string }>`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'i' and relname ~ '^search_vectors_[0-9]+_[0-9]_[0-9a-f]{12}$' order by relname`.execute(h.database.db)).rows.map(
      (row) => row.name,
    );

  /** The plan of the nearest-rows statement of a collection's granularity. */
  const planOf = async (collectionId: string, granularity: number, embedder: string) => {
    const { db } = h.database;
    return db.transaction().execute(async (trx) => {
      await searchBreadth(100).execute(trx);
      const table = (await nearestTable(trx, collectionId, granularity, embedder))!;
      const statement = nearestStatement('public', table.key, granularity, { values: new Float32Array(textVector('zebra')), embedder }, 100, table.indexed);
      return (await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(trx)).rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  };
  const collectionId = async (name: string) => (await h.database.db.selectFrom('collections').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const keyOf = async (name: string) => (await sql<{ key: string }>`select key from search_collections where collection_id = ${await collectionId(name)}`.execute(h.database.db)).rows[0]!.key;

  test.runIf(onPostgres)('PostgreSQL reads them through the HNSW index of the collection’s granularity, in its own table', async () => {
    // Only the pages have enough rows for one; the documents and snippets are scanned exactly.
    const big = await keyOf('big');
    expect(await indexes()).toEqual([expect.stringMatching(new RegExp(`^search_vectors_${big}_1_`))]);
    const { rows } = await sql<{ embedder: string }>`select embedder from ${sql.table(`search_vectors_${big}`)} where granularity = 1 limit 1`.execute(h.database.db);
    const plan = await planOf(await collectionId('big'), 1, rows[0]!.embedder);
    expect(plan).toMatch(new RegExp(`Index Scan using search_vectors_${big}_1_[0-9a-f]+ on search_vectors_${big}\\b`));
  });

  test.runIf(onPostgres)('PostgreSQL: a small collection’s plan names only its own vectors table, not the indexed one’s', async () => {
    await h.call('/v1/collections/add-collection', { collection_name: 'small' }, f.keyB);
    const added = await h.call('/v1/documents/add-document', { collection_name: 'small', path: 'one.txt', content: { type: 'text-pages', pages: ['zebra crossing', 'harbour lights'] } }, f.keyB);
    expect(added.status).toBe(201);
    await f.workers.idle();
    const small = await keyOf('small');
    const { rows } = await sql<{ embedder: string }>`select embedder from ${sql.table(`search_vectors_${small}`)} limit 1`.execute(h.database.db);
    for (const granularity of [0, 1]) {
      const plan = await planOf(await collectionId('small'), granularity, rows[0]!.embedder);
      // Tables and indexes named by their collection's key: its own only.
      const keys = [...plan.matchAll(/search_vectors(_\d+)?/g)].map((match) => match[1]);
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys)).toEqual(new Set([`_${small}`]));
    }
    // Its search answers from its own vectors only.
    const response = await h.call('/v1/queries/top-pages', { collection_name: 'small', query: 'nothing in common', k: 10 }, f.keyB);
    expect(response.body.results.map((result: { path: string }) => result.path)).toEqual(['one.txt', 'one.txt']);
    expect((await h.call('/v1/collections/delete-collection', { collection_name: 'small' }, f.keyB)).status).toBe(200);
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
