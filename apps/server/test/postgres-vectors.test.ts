import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import * as vectorsByCollection from '../src/db/migrations/023_vectors_by_collection.ts';
import { createNearestIndex } from '../src/engine/search/postgres-hnsw.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { searchCorpus } from './search-corpus.ts';

// PostgreSQL: each collection's vectors in a table of its own (migration 023), with its HNSW
// indexes, so its searches and writes never meet another organization's vectors.

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres' && Boolean(process.env.TEST_POSTGRES_URL);

/** A stand-in of `/v1/embeddings`: each text a pseudo-random vector of its hash. */
async function startEmbeddings(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] };
    const vector = (text: string) => Array.from({ length: 8 }, (_, i) => createHash('sha256').update(text).digest().readInt16LE(i * 2) / 32768);
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vector(text) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.runIf(postgres)('PostgreSQL vectors by collection', () => {
  let embeddings: Awaited<ReturnType<typeof startEmbeddings>>;
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  const env = (model: string) => ({ SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: embeddings.url, SIFT_EMBEDDING_MODEL: model });

  beforeAll(async () => {
    embeddings = await startEmbeddings();
    h = await startHarness(env('hashed'));
    f = await providerFixtures(h);
    for (const [key, collection, corpus] of [
      [f.keyA, 'mine', searchCorpus(3, 12)],
      [f.keyB, 'theirs', searchCorpus(5, 30)],
    ] as const) {
      await h.call('/v1/collections/add-collection', { collection_name: collection }, key);
      for (const document of corpus) {
        await h.call('/v1/documents/add-document', { collection_name: collection, path: document.path, content: { type: 'text-pages', pages: document.pages }, metadata: { even: String(document.path.length % 2 === 0) } }, key);
      }
    }
    await f.workers.idle();
    // Idle upkeep (blocks merged, vectors of another embedder re-embedded) done before a test
    // migrates the database down beneath the server.
    for (let quiet = 0; quiet < 3; quiet = (await h.engine.search.upkeepStep()) ? 0 : quiet + 1);
  }, 120_000);
  afterAll(async () => {
    await f?.workers.stop();
    await h?.close();
    await embeddings?.close();
  });

  const keyOf = async (name: string) =>
    Number((await sql<{ key: string }>`select k.key from search_collections k join collections c on c.id = k.collection_id where c.name = ${name}`.execute(h.database.db)).rows[0]!.key);
  /** The schema's vectors tables, or its HNSW indexes, and on which table each is. */
  const relations = async (kind: 'r' | 'i') =>
    (await sql<{ name: string; on: string | null }>`
      select c.relname as name, t.relname as on from pg_class c left join pg_index i on i.indexrelid = c.oid left join pg_class t on t.oid = i.indrelid
      where c.relnamespace = current_schema()::regnamespace and c.relkind = ${kind}
        and c.relname ~ ${kind === 'r' ? '^search_vectors(_[0-9]+)?$' : '^search_vectors_[0-9]+_[0-9]_[0-9a-f]{12}$'} order by c.relname`.execute(h.database.db)).rows;
  /** Every query kind's hybrid hits in a collection, through the API. */
  async function answers(collection: string, key: string) {
    const results: unknown[] = [];
    for (const query of ['alpha beta', 'nothing shared']) {
      for (const [path, body] of [
        ['top-documents', {}],
        ['top-documents', { filter: { even: { $eq: 'true' } } }],
        ['top-pages', {}],
        ['top-snippets', { precise_responses: true }],
      ] as const) {
        const response = await h.call(`/v1/queries/${path}`, { collection_name: collection, query, k: 5, ...body }, key);
        expect(response.status).toBe(200);
        results.push(response.body.results);
      }
    }
    return results;
  }

  test("each collection's vectors are in a table of its own; an empty collection has none", async () => {
    const [mine, theirs] = [await keyOf('mine'), await keyOf('theirs')];
    await h.call('/v1/collections/add-collection', { collection_name: 'empty' }, f.keyA);
    expect((await relations('r')).map((table) => table.name)).toEqual([`search_vectors_${mine}`, `search_vectors_${theirs}`].sort());
    expect((await answers('empty', f.keyA)).flat()).toEqual([]);
  });

  test('a database with every vector in one table migrates to a table each, HNSW indexes included, and searches answer the same', async () => {
    const mine = await keyOf('mine');
    const { rows } = await sql<{ embedder: string }>`select embedder from ${sql.table(`search_vectors_${mine}`)} limit 1`.execute(h.database.db);
    // An HNSW index as ingestion makes one past its threshold, on the pages of 'mine'.
    await createNearestIndex(h.database.db, 'public', mine, 1, rows[0]!.embedder, { concurrently: false });
    const [tables, indexes] = [await relations('r'), await relations('i')];
    expect(indexes).toEqual([{ name: expect.stringMatching(new RegExp(`^search_vectors_${mine}_1_`)), on: `search_vectors_${mine}` }]);
    const before = [await answers('mine', f.keyA), await answers('theirs', f.keyB)];
    expect(before.flat(2).length).toBeGreaterThan(0);

    // The layout before migration 023: one table, every vector naming its collection, the index's predicate too.
    await vectorsByCollection.down(h.database.db as unknown as Kysely<unknown>);
    await sql`delete from kysely_migration where name = '023_vectors_by_collection'`.execute(h.database.db);
    expect(await relations('r')).toEqual([{ name: 'search_vectors', on: null }]);
    expect(await relations('i')).toEqual([{ name: indexes[0]!.name, on: 'search_vectors' }]);
    const { rows: predicate } = await sql<{ definition: string }>`select pg_get_indexdef(${indexes[0]!.name}::regclass) as definition`.execute(h.database.db);
    expect(predicate[0]!.definition).toMatch(/WHERE \(\(collection_id = '[^']+'::text\) AND \(granularity = 1\) AND \(embedder = /);

    // A server of this version starting on it migrates it.
    const database = await openDatabase({ dataDir: h.config.dataDir, databaseUrl: h.config.databaseUrl });
    try {
      expect(await relations('r')).toEqual(tables);
      expect(await relations('i')).toEqual(indexes);
      expect([await answers('mine', f.keyA), await answers('theirs', f.keyB)]).toEqual(before);
      // Deleting a document still takes its vectors, from its collection's table.
      const [first] = searchCorpus(3, 12);
      expect((await h.call('/v1/documents/delete-document', { collection_name: 'mine', path: first!.path }, f.keyA)).status).toBe(200);
      for (const { name } of tables) {
        const { rows: left } = await sql<{ n: number }>`
          select count(*)::int as n from ${sql.table(name)} v where not exists (select 1 from documents d where d.seq = v.document_seq)`.execute(h.database.db);
        expect(left[0]!.n).toBe(0);
      }
    } finally {
      await database.destroy();
    }
  });

  test("another embedder re-embeds every collection's vectors in their own tables", async () => {
    const tables = await relations('r');
    await f.workers.stop();
    await h.close();
    h = await startHarness({ ...env('hashed-again'), DATABASE_URL: h.config.databaseUrl! });
    f = { ...f, workers: await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 }) };
    const embedders = async () => {
      const found: string[][] = [];
      for (const { name } of tables) {
        found.push((await sql<{ embedder: string }>`select distinct split_part(embedder, ':', 2) as embedder from ${sql.table(name)}`.execute(h.database.db)).rows.map((row) => row.embedder));
      }
      return found;
    };
    await expect.poll(embedders, { timeout: 30_000, interval: 200 }).toEqual(tables.map(() => ['hashed-again']));
    expect(await relations('r')).toEqual(tables);
  }, 60_000);

  test("deleting a collection drops its vectors table and its indexes, and leaves the others'", async () => {
    const [mine, theirs] = [await keyOf('mine'), await keyOf('theirs')];
    expect((await h.call('/v1/collections/delete-collection', { collection_name: 'mine' }, f.keyA)).status).toBe(200);
    await f.workers.idle();
    await expect.poll(async () => (await relations('r')).map((table) => table.name), { timeout: 10_000 }).toEqual([`search_vectors_${theirs}`]);
    expect((await relations('i')).filter((index) => index.name.startsWith(`search_vectors_${mine}_`))).toEqual([]);
    expect((await answers('theirs', f.keyB)).flat().length).toBeGreaterThan(0);
  });
});
