import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyze, queryTermCounts } from '../src/engine/search/analyzer.ts';
import { BM25_MIN_IDF, bm25Idf, bm25Score, bm25TermWeight } from '../src/engine/search/rank.ts';
import { deleteCollectionsOf } from '../src/domain/collections.ts';
import { indexPostgresDocuments, rebuildPostgresIndex } from '../src/engine/search/postgres.ts';
import { wholeTextSql } from '../src/engine/search/slices.ts';
import { existsSync, rmSync } from 'node:fs';
import { ensureSearchFiles, searchFilePath } from '../src/engine/search/sqlite-file.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { type CorpusDocument, SEARCH_QUERIES, searchCorpus } from './search-corpus.ts';

/**
 * One index per collection, one analyzer and one BM25 on both backends (issue #11): runs on the
 * dialect of the run (SQLite, or PostgreSQL in the second pass of `npm test`).
 */

type Fixtures = Awaited<ReturnType<typeof providerFixtures>>;

async function addCorpus(h: Harness, key: string, collection: string, documents: CorpusDocument[]) {
  const added = await h.call('/v1/collections/add-collection', { collection_name: collection }, key);
  expect(added.status).toBe(201);
  for (const [i, document] of documents.entries()) {
    const response = await h.call(
      '/v1/documents/add-document',
      { collection_name: collection, path: document.path, content: { type: 'text-pages', pages: document.pages }, metadata: { group: `g${i % 3}` } },
      key,
    );
    expect(response.status).toBe(201);
  }
}

/** Every query kind's top 10 (place and score) for every query: what a client sees of the ranking. */
async function rankings(h: Harness, key: string, collection: string, filter: unknown = null) {
  const results: Record<string, unknown[]> = {};
  for (const query of SEARCH_QUERIES) {
    const documents = await h.call('/v1/queries/top-documents', { collection_name: collection, query, k: 10, filter }, key);
    const pages = await h.call('/v1/queries/top-pages', { collection_name: collection, query, k: 10, filter }, key);
    const coarse = await h.call('/v1/queries/top-snippets', { collection_name: collection, query, k: 10, filter }, key);
    const fine = await h.call('/v1/queries/top-snippets', { collection_name: collection, query, k: 10, filter, precise_responses: true }, key);
    for (const response of [documents, pages, coarse, fine]) expect(response.status).toBe(200);
    type Hit = { path: string; score: number; page_index?: number; start_index?: number };
    const hits = (response: { body: unknown }) => (response.body as { results: Hit[] }).results;
    results[`documents: ${query}`] = hits(documents).map((hit) => [hit.path, hit.score]);
    results[`pages: ${query}`] = hits(pages).map((hit) => [hit.path, hit.page_index, hit.score]);
    results[`coarse: ${query}`] = hits(coarse).map((hit) => [hit.path, hit.start_index, hit.score]);
    results[`fine: ${query}`] = hits(fine).map((hit) => [hit.path, hit.start_index, hit.score]);
  }
  return results;
}

const paths = (ranking: Record<string, unknown[]>) => new Set(Object.values(ranking).flatMap((hits) => hits.map((hit) => (hit as unknown[])[0])));

async function collectionId(h: Harness, organizationId: string, name: string): Promise<string> {
  const row = await h.database.db.selectFrom('collections').select('id').where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** How much index a collection has: SQLite's search file, PostgreSQL's postings and statistics. */
async function indexRows(h: Harness, id: string): Promise<number> {
  if (h.database.dialect === 'postgres') {
    const { rows } = await sql<{ n: number }>`
      select (select count(*) from search_rows where collection_id = ${id}) + (select count(*) from search_stats where collection_id = ${id}) as n`.execute(h.database.db);
    return Number(rows[0]!.n) + (await postings(h, id)) + (await orphanRows(h));
  }
  return existsSync(searchFilePath(h.database.sqlitePath!, id)) ? 1 : 0;
}

/** PostgreSQL: the postings of a collection, in blocks in its own table (migrations 019, 025) while it has one. */
async function postings(h: Harness, id: string): Promise<number> {
  const { rows } = await sql<{ key: string }>`select key from search_collections where collection_id = ${id}`.execute(h.database.db);
  const tables = await postingsTables(h);
  const table = rows[0] && `search_postings_${rows[0].key}`;
  if (!table || !tables.includes(table)) return 0;
  return Number((await sql<{ n: number }>`select coalesce(sum(cardinality(row_seqs)), 0) as n from ${sql.table(table)}`.execute(h.database.db)).rows[0]!.n);
}

/** PostgreSQL: the postings tables there are, of collections there or not. */
async function postingsTables(h: Harness): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname ~ '^search_postings_[0-9]+$'`.execute(h.database.db);
  return rows.map((row) => row.name);
}

/**
 * PostgreSQL: postings, rows and block records whose document is gone, and postings tables whose collection is. They have no
 * foreign key: a trigger on documents deletes them with their document (migrations 011, 025), cascades included.
 */
async function orphanRows(h: Harness): Promise<number> {
  if (h.database.dialect !== 'postgres') return 0;
  let orphans = 0;
  for (const table of await postingsTables(h)) {
    const { rows } = await sql<{ n: number; collection: boolean }>`
      select (select count(*) from ${sql.table(table)} p cross join unnest(p.document_seqs) as x(seq) where not exists (select 1 from documents d where d.seq = x.seq)) as n,
             exists (select 1 from search_collections k where 'search_postings_' || k.key = ${table}) as collection`.execute(h.database.db);
    orphans += Number(rows[0]!.n) + (rows[0]!.collection ? 0 : 1);
  }
  const { rows } = await sql<{ n: number }>`
    select (select count(*) from search_rows r where not exists (select 1 from documents d where d.seq = r.document_seq))
      + (select count(*) from search_document_blocks b where not exists (select 1 from documents d where d.seq = b.document_seq)) as n`.execute(h.database.db);
  return orphans + Number(rows[0]!.n);
}

describe('one index per collection', () => {
  let h: Harness;
  let f: Fixtures;
  const corpus = searchCorpus(11, 40);
  let alone: Record<string, unknown[]>;
  beforeAll(async () => {
    h = await startHarness();
    f = await providerFixtures(h);
    await addCorpus(h, f.keyA, 'main', corpus);
    await f.workers.idle();
    alone = await rankings(h, f.keyA, 'main');
  }, 120_000);
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
  });

  test("top-documents ranks by the engine's BM25 (rank.ts) over the documents' own text", async () => {
    const id = await collectionId(h, f.organizationA, 'main');
    const documents = (await h.database.db.selectFrom('documents').select(['path', wholeTextSql('documents').as('text')]).where('collection_id', '=', id).execute()).map((row) => ({
      path: row.path,
      terms: analyze(row.text ?? ''),
    }));
    const averageLength = documents.reduce((total, document) => total + document.terms.length, 0) / documents.length;
    for (const query of SEARCH_QUERIES) {
      const queryTerms = queryTermCounts(query);
      const frequency = (term: string) => documents.filter((document) => document.terms.includes(term)).length;
      const weighed = documents
        .map((document) => {
          let weight = 0;
          for (const { term, count } of queryTerms) {
            const tf = document.terms.filter((t) => t === term).length;
            if (tf > 0) weight += count * bm25Idf(documents.length, frequency(term)) * bm25TermWeight(tf, document.terms.length, averageLength);
          }
          return { path: document.path, weight: Number(weight.toPrecision(12)) };
        })
        .filter((hit) => hit.weight > 0)
        .sort((a, b) => b.weight - a.weight || (a.path < b.path ? -1 : 1))
        .slice(0, 10);
      const served = alone[`documents: ${query}`] as [string, number][];
      expect(served.map(([path]) => path)).toEqual(weighed.map((hit) => hit.path));
      served.forEach(([, score], i) => expect(score).toBeCloseTo(bm25Score(weighed[i]!.weight), 9));
    }
  });

  test("a collection's scores and order are the same with and without other organizations' and collections' documents", async () => {
    expect(Object.values(alone).every((hits) => hits.length > 0)).toBe(true);
    // Same words, other texts: another collection of this organization, and one of the same name in another.
    await addCorpus(h, f.keyA, 'neighbour', searchCorpus(12, 30, 'near'));
    await addCorpus(h, f.keyB, 'main', searchCorpus(13, 30, 'other'));
    await f.workers.idle();
    expect(await rankings(h, f.keyA, 'main')).toEqual(alone);
    // And the neighbours see only their own documents.
    expect([...paths(await rankings(h, f.keyB, 'main'))].every((path) => String(path).startsWith('other-'))).toBe(true);
  }, 120_000);

  test('equal scores are ordered by path, then place in the document', async () => {
    const response = await h.call('/v1/queries/top-documents', { collection_name: 'main', query: 'otters herons kelp river', k: 50 }, f.keyA);
    const results = (response.body as { results: { path: string; score: number }[] }).results;
    const a = results.findIndex((hit) => hit.path === 'doc-twin-a.txt');
    expect(a).toBeGreaterThanOrEqual(0);
    expect(results[a + 1]).toMatchObject({ path: 'doc-twin-b.txt', score: results[a]!.score });
    for (let i = 1; i < results.length; i++) expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score);
    expect(results.every((hit) => hit.score > 0 && hit.score < 1)).toBe(true);
  });

  test("a term in half the rows or more still counts, by FTS5's least idf, with or without a filter", async () => {
    const texts = { 'a.txt': 'orchid river', 'b.txt': 'orchid stone', 'c.txt': 'orchid maple', 'd.txt': 'maple cloud' };
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'common' }, f.keyA)).status).toBe(201);
    for (const [path, text] of Object.entries(texts)) {
      const added = await h.call('/v1/documents/add-document', { collection_name: 'common', path, content: { type: 'text', text }, metadata: { kind: 'note' } }, f.keyA);
      expect(added.status).toBe(201);
    }
    await f.workers.idle();
    // "orchid" is in 3 rows of 4: ln((4 - 3 + 0.5) / (3 + 0.5)) < 0, so its idf is BM25_MIN_IDF, and
    // each row holding it once in two words (the average length) weighs exactly that.
    const least = bm25Score(BM25_MIN_IDF);
    for (const filter of [null, { kind: { $eq: 'note' } }]) {
      const response = await h.call('/v1/queries/top-documents', { collection_name: 'common', query: 'orchid cloud', k: 10, filter }, f.keyA);
      const results = (response.body as { results: { path: string; score: number }[] }).results;
      expect(results.map((hit) => hit.path)).toEqual(['d.txt', 'a.txt', 'b.txt', 'c.txt']);
      expect(results[0]!.score).toBeGreaterThan(0.05);
      for (const hit of results.slice(1)) expect(hit.score).toBeCloseTo(least, 15);
    }
  });

  test('a term matches itself only, not the terms it begins or that begin with it, with or without a filter', async () => {
    const texts = { 'a.txt': 'run run run', 'b.txt': 'runway runway', 'c.txt': 'run2 rune ru' };
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'prefixes' }, f.keyA)).status).toBe(201);
    for (const [path, text] of Object.entries(texts)) {
      const added = await h.call('/v1/documents/add-document', { collection_name: 'prefixes', path, content: { type: 'text', text }, metadata: { kind: 'note' } }, f.keyA);
      expect(added.status).toBe(201);
    }
    await f.workers.idle();
    for (const filter of [null, { kind: { $eq: 'note' } }]) {
      const found = async (query: string) =>
        ((await h.call('/v1/queries/top-documents', { collection_name: 'prefixes', query, k: 10, filter }, f.keyA)).body as { results: { path: string }[] }).results.map((hit) => hit.path);
      expect(await found('run')).toEqual(['a.txt']);
      expect(await found('runway')).toEqual(['b.txt']);
      expect(await found('ru')).toEqual(['c.txt']);
      expect(await found('run2')).toEqual(['c.txt']);
    }
  });

  test('rows tied with the k-th are ordered by place whatever order they were indexed in', async () => {
    // Indexed last path first, so the index meets the tied rows in the opposite order of their places.
    const tied = ['tie-f', 'tie-e', 'tie-d', 'tie-c', 'tie-b', 'tie-a'].map((name) => ({ path: `${name}.txt`, pages: ['quagga okapi zebra tapir'] }));
    await addCorpus(h, f.keyA, 'ties', [...tied, { path: 'best.txt', pages: ['quagga quagga okapi'] }]);
    await f.workers.idle();
    for (const [route, extra] of [
      ['/v1/queries/top-documents', {}],
      ['/v1/queries/top-pages', {}],
      ['/v1/queries/top-snippets', {}],
      ['/v1/queries/top-snippets', { precise_responses: true }],
    ] as const) {
      for (const k of [1, 3]) {
        const response = await h.call(route, { collection_name: 'ties', query: 'quagga', k, ...extra }, f.keyA);
        expect(response.status).toBe(200);
        const results = (response.body as { results: { path: string }[] }).results;
        expect(results.map((hit) => hit.path)).toEqual(['best.txt', 'tie-a.txt', 'tie-b.txt'].slice(0, k));
      }
    }
  });

  test('metadata filters rank inside the collection with its own statistics', async () => {
    const filtered = await rankings(h, f.keyA, 'main', { group: 'g1' });
    const groupOne = new Set(corpus.filter((_, i) => i % 3 === 1).map((document) => document.path));
    expect([...paths(filtered)].every((path) => groupOne.has(String(path)))).toBe(true);
    // A filtered hit scores what it scores unfiltered: the filter does not change the statistics.
    const all = await h.call('/v1/queries/top-documents', { collection_name: 'main', query: 'library catalog indexing', k: 100 }, f.keyA);
    const unfiltered = new Map((all.body as { results: { path: string; score: number }[] }).results.map((hit) => [hit.path, hit.score]));
    const hits = filtered['documents: library catalog indexing']!;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(unfiltered.get((hit as [string, number])[0])).toBe((hit as [string, number])[1]);
  });

  test('a deleted document leaves every granularity at once, and the statistics with it', async () => {
    const gone = corpus.slice(0, 5).map((document) => document.path);
    const deleted = await h.call('/v1/documents/delete-document', { collection_name: 'main', path: gone }, f.keyA);
    expect(deleted.status).toBe(200);
    expect(await orphanRows(h)).toBe(0);
    const after = await rankings(h, f.keyA, 'main');
    expect([...paths(after)].filter((path) => gone.includes(String(path)))).toEqual([]);
    // Once the index has dropped them, the collection ranks exactly as one that never had them.
    await f.workers.idle();
    await addCorpus(h, f.keyA, 'never', corpus.slice(5));
    await f.workers.idle();
    expect(await rankings(h, f.keyA, 'main')).toEqual(await rankings(h, f.keyA, 'never'));
  }, 120_000);

  test('an index rebuilt from the stored text, pages and snippets gives the same results', async () => {
    const before = await rankings(h, f.keyA, 'main');
    const id = await collectionId(h, f.organizationA, 'main');
    if (h.database.dialect === 'postgres') {
      await sql`delete from ${sql.table(`search_postings_${(await sql<{ key: string }>`select key from search_collections where collection_id = ${id}`.execute(h.database.db)).rows[0]!.key}`)}`.execute(h.database.db);
      await sql`delete from search_rows where collection_id = ${id}`.execute(h.database.db);
      expect(Object.values(await rankings(h, f.keyA, 'main')).flat()).toEqual([]);
      await rebuildPostgresIndex(h.database.db, id);
    } else {
      rmSync(searchFilePath(h.database.sqlitePath!, id));
      // Readers notice a removed file within a moment (reader-pool.ts), and then match nothing.
      await expect.poll(async () => Object.values(await rankings(h, f.keyA, 'main')).flat()).toEqual([]);
      ensureSearchFiles(h.database.sqlitePath!); // what the server does when it starts
    }
    expect(await rankings(h, f.keyA, 'main')).toEqual(before);
  }, 120_000);

  test('deleting a collection removes its index', async () => {
    const id = await collectionId(h, f.organizationA, 'never');
    expect(await indexRows(h, id)).toBeGreaterThan(0);
    expect((await h.call('/v1/collections/delete-collection', { collection_name: 'never' }, f.keyA)).status).toBe(200);
    expect(await indexRows(h, id)).toBe(0);
    // A new collection of that name starts empty.
    await h.call('/v1/collections/add-collection', { collection_name: 'never' }, f.keyA);
    expect(Object.values(await rankings(h, f.keyA, 'never')).flat()).toEqual([]);
  }, 60_000);

  test("deleting an organization removes its collections' indexes", async () => {
    const id = await collectionId(h, f.organizationB, 'main');
    expect(await indexRows(h, id)).toBeGreaterThan(0);
    // What deleting an organization does: its collections' documents go a batch at a time, then the collections.
    await deleteCollectionsOf(h.database, h.engine, h.context, f.organizationB);
    await h.database.db.deleteFrom('organizations').where('id', '=', f.organizationB).execute();
    expect(await indexRows(h, id)).toBe(0);
  });

  test.runIf(process.env.SIFT_TEST_DIALECT === 'postgres')('a document deleted while it is being indexed leaves no postings behind', async () => {
    const { db } = h.database;
    const document = await db.selectFrom('documents').select('id').where('index_status', '=', 'indexed').executeTakeFirstOrThrow();
    // The indexing transaction holds its documents: the deletion waits for it, then takes what it wrote.
    const deletion = await db.transaction().execute(async (trx) => {
      await indexPostgresDocuments(trx, [document.id]);
      const deleting = db.deleteFrom('documents').where('id', '=', document.id).execute();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { deleting };
    });
    await deletion.deleting;
    expect(await db.selectFrom('documents').select('id').where('id', '=', document.id).executeTakeFirst()).toBeUndefined();
    expect(await orphanRows(h)).toBe(0);
  });

  test.runIf(process.env.SIFT_TEST_DIALECT === 'postgres')('the index of a collection whose drop never ran goes at the next clean-up', async () => {
    const { db } = h.database;
    await addCorpus(h, f.keyA, 'forgotten', corpus.slice(0, 3));
    await f.workers.idle();
    const id = await collectionId(h, f.organizationA, 'forgotten');
    expect(await indexRows(h, id)).toBeGreaterThan(0);
    // A server that stopped after deleting the collection's rows, before dropping its index.
    await db.deleteFrom('documents').where('collection_id', '=', id).execute();
    await db.deleteFrom('collections').where('id', '=', id).execute();
    await h.engine.search.applyDeletions();
    expect(await indexRows(h, id)).toBe(0);
  }, 60_000);

  test.runIf(process.env.SIFT_TEST_DIALECT === 'postgres')('statistics being folded when their collection is dropped go with it', async () => {
    const { db } = h.database;
    // The engine's own idle folds stopped: the test's is the one that folds.
    await f.workers.stop();
    await h.call('/v1/collections/add-collection', { collection_name: 'folded' }, f.keyA);
    const id = await collectionId(h, f.organizationA, 'folded');
    await sql`insert into search_stats (collection_id, granularity, rows, tokens) select ${id}, 'document', 1, 1 from generate_series(1, 3)`.execute(db);
    // One delta held by another transaction: the fold (applyDeletions' last step) deletes the others,
    // then waits on it, its sum unwritten.
    let holding!: (pid: number) => void;
    let release!: () => void;
    const holderPid = new Promise<number>((resolve) => (holding = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await sql`select 1 from search_stats where collection_id = ${id} limit 1 for update`.execute(trx);
      holding((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const blockedBy = async (pid: number) =>
      (await sql<{ pid: number }>`select pid from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(db)).rows.map((row) => row.pid);
    const folding = h.engine.search.applyDeletions();
    const holderBackend = await holderPid;
    await expect.poll(() => blockedBy(holderBackend)).toHaveLength(1);
    const [folder] = await blockedBy(holderBackend);
    // What deleting a collection does once its documents are gone: its row, then its index.
    await db.deleteFrom('collections').where('id', '=', id).execute();
    const drop = h.engine.search.dropCollections([id]);
    await expect.poll(() => blockedBy(folder!)).not.toHaveLength(0);
    release();
    await Promise.all([holder, folding, drop]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from search_stats where collection_id = ${id}`.execute(db);
    expect(rows[0]!.n).toBe(0);
  });
});

/** Needs both databases at once: runs in the PostgreSQL pass of `npm test`. */
describe.runIf(process.env.SIFT_TEST_DIALECT === 'postgres' && process.env.TEST_POSTGRES_URL)('SQLite and PostgreSQL', () => {
  const harnesses: { h: Harness; f: Fixtures }[] = [];
  beforeAll(async () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const h = await startHarness({}, { dialect });
      const f = await providerFixtures(h);
      await addCorpus(h, f.keyA, 'main', searchCorpus(21, 40));
      await addCorpus(h, f.keyA, 'other', searchCorpus(22, 20, 'other'));
      await f.workers.idle();
      harnesses.push({ h, f });
    }
  }, 180_000);
  afterAll(async () => {
    for (const { h, f } of harnesses) {
      await f.workers.stop();
      await h.close();
    }
  });

  test('the same corpus gives the same top-10 order, and the same scores to 12 digits, on both', async () => {
    const [sqlite, postgres] = await Promise.all(harnesses.map(({ h, f }) => rankings(h, f.keyA, 'main')));
    expect(harnesses.map(({ h }) => h.database.dialect)).toEqual(['sqlite', 'postgres']);
    const places = (ranking: Record<string, unknown[]>) => Object.fromEntries(Object.entries(ranking).map(([key, hits]) => [key, hits.map((hit) => (hit as unknown[]).slice(0, -1))]));
    expect(places(postgres!)).toEqual(places(sqlite!));
    for (const [key, hits] of Object.entries(sqlite!)) {
      hits.forEach((hit, i) => expect((postgres![key]![i] as unknown[]).at(-1)).toBeCloseTo((hit as unknown[]).at(-1) as number, 12));
    }
  });
});

describe("a collection's common terms (relevance feedback leaves them out)", () => {
  let h: Harness;
  let f: Fixtures;
  beforeAll(async () => {
    h = await startHarness();
    f = await providerFixtures(h);
    await h.call('/v1/collections/add-collection', { collection_name: 'notes' }, f.keyA);
    // Ten one-passage documents: "kelp" in three, "otter" in one, "heron" in none.
    for (let i = 0; i < 10; i++) {
      const text = `Note ${i} about the river${i < 3 ? ' and its kelp' : ''}${i === 0 ? ' and an otter' : ''}.`;
      expect((await h.call('/v1/documents/add-document', { collection_name: 'notes', path: `note-${i}.txt`, content: { type: 'text', text } }, f.keyA)).status).toBe(201);
    }
    await f.workers.idle();
  }, 120_000);
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
  });

  test('a term is common when more rows than the share hold it, however many rows that is', async () => {
    const id = await collectionId(h, f.organizationA, 'notes');
    const terms = analyze('river kelp otter heron');
    const common = (share: number) => h.engine.search.commonTerms(id, 'coarse', terms, share);
    expect([...(await common(0.1))].sort()).toEqual(analyze('kelp river').sort());
    expect([...(await common(0.3))].sort()).toEqual(analyze('river'));
    expect([...(await common(0))].sort()).toEqual(analyze('kelp otter river').sort());
    expect([...(await common(1))]).toEqual([]);
  });
});
