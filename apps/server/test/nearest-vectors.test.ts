import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INDEXED_FROM, nearestStatement, nearestTable, searchBreadth } from '../src/engine/search/postgres-hnsw.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Thousands of vectors in one collection: the pages nearest a query (which shares no word with
 * them, so the ranking is the vectors' alone) are the ones an exact computation finds, whether
 * the backend reads them exactly or through an approximate index (PostgreSQL's HNSW, which the
 * planner must take). The stand-in embedder gives each text a pseudo-random vector of its hash.
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
  const env = (model: string) => ({ SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: embeddings.url, SIFT_EMBEDDING_MODEL: model });

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
  });

  test('answers the same top 10 pages as an exact scan', async () => {
    const pages = Array.from({ length: DOCUMENTS }, (_, document) => Array.from({ length: PAGES }, (_, page) => ({ path: `doc${document}.txt`, page, text: pageText(document, page) }))).flat();
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
  });

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
