import { existsSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import { addDocumentEvent } from '../src/domain/usage-events.ts';
import { createEngine } from '../src/engine/engine.ts';
import { searchDirectory } from '../src/engine/search/sqlite-file.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { SEARCH_QUERIES, searchCorpus } from './search-corpus.ts';

/**
 * Migration 007: a data folder (SQLite) or database (PostgreSQL) indexed the way migration 006
 * left it moves to the per-collection index when the server opens it, every document searchable.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  for (const [collection, seed] of [['one', 31], ['two', 32]] as const) {
    await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
    for (const document of searchCorpus(seed, 15, collection)) {
      await h.call('/v1/documents/add-document', { collection_name: collection, path: document.path, content: { type: 'text-pages', pages: document.pages } }, f.keyA);
    }
  }
  await f.workers.idle();
}, 120_000);
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

/** Every query kind's top 10 in every collection, straight from the index. */
async function rankings(database: Database) {
  const collections = await database.db.selectFrom('collections').select('id').orderBy('name').execute();
  const results: unknown[] = [];
  for (const { id } of collections) {
    for (const query of SEARCH_QUERIES) {
      const request = { collectionId: id, query, k: 10, filter: null };
      const index = createEngine({ database, files: h.files, usage: addDocumentEvent }).search;
      results.push(
        (await index.topDocuments(request)).map((hit) => [hit.path, hit.score]),
        (await index.topPages({ ...request, includeContent: false, includeMetadata: false })).map((hit) => [hit.path, hit.pageIndex, hit.score]),
        (await index.topSnippets({ ...request, granularity: 'coarse', includeMetadata: false })).map((hit) => [hit.path, hit.startIndex, hit.score]),
        (await index.topSnippets({ ...request, granularity: 'fine', includeMetadata: false })).map((hit) => [hit.path, hit.startIndex, hit.score]),
      );
    }
  }
  return results;
}

/** Puts the database back the way migrations 001-006 left it (the index of 006), its documents kept. */
async function backToMigration006(database: Database) {
  const { db } = database;
  if (database.dialect === 'postgres') {
    await sql`drop trigger search_documents_removed on documents`.execute(db);
    await sql`drop function search_documents_removed`.execute(db);
    // Migration 019's postings, a table per collection.
    const { rows } = await sql<{ name: string }>`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname ~ '^search_postings_[0-9]+$'`.execute(db);
    for (const { name } of rows) await sql`drop table ${sql.table(name)}`.execute(db);
    for (const table of ['search_stats', 'search_rows', 'search_collections']) await sql.raw(`drop table ${table}`).execute(db);
    // Migrations 025-027's blocks and their sizes.
    await sql`drop table search_document_blocks, search_block_sizes`.execute(db);
    await sql`drop sequence search_blocks`.execute(db);
    await sql`drop function search_remove_postings`.execute(db);
    await sql`drop function search_rows_added`.execute(db);
    await sql`drop function search_rows_removed`.execute(db);
    // Its generated column read the document's text, and pages' and snippets' their content, which
    // migrations 018 and 024 have since moved: a column of the same name stands in for it.
    await sql`alter table documents add column text_tsv tsvector`.execute(db);
  } else {
    await sql`drop table search_deletions`.execute(db);
    await sql`create table search_deletions (id integer primary key autoincrement, fts_table text not null, row_id integer not null)`.execute(db);
    await sql`insert into search_deletions (fts_table, row_id) values ('fine_fts', 1)`.execute(db);
    rmSync(searchDirectory(database.sqlitePath!), { recursive: true, force: true });
    // Migration 006's shared search file, with one table per granularity.
    const old = new SQLite(database.sqlitePath!.replace(/\.db$/, '-search.db'));
    for (const table of ['documents_fts', 'pages_fts', 'coarse_fts', 'fine_fts']) {
      old.exec(`create virtual table ${table} using fts5(collection, content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`);
    }
    old.close();
  }
  const since007 = ['007_collection_index', '011_compact_postings', '014_covering_postings', '019_postings_by_collection', '025_postings_in_blocks', '026_block_sizes', '027_row_counts'];
  await sql`delete from kysely_migration where name in (${sql.join(since007)})`.execute(db);
}

test('an index of migration 006 moves to one index per collection on start, every document found as before', async () => {
  const before = await rankings(h.database);
  expect(before.filter((hits) => (hits as unknown[]).length > 0).length).toBeGreaterThan(SEARCH_QUERIES.length);
  await f.workers.stop();
  await backToMigration006(h.database);

  const reopened = await openDatabase({ dataDir: h.config.dataDir, databaseUrl: h.config.databaseUrl });
  try {
    expect(await rankings(reopened)).toEqual(before);
    if (reopened.sqlitePath) expect(existsSync(reopened.sqlitePath.replace(/\.db$/, '-search.db'))).toBe(false);
  } finally {
    await reopened.destroy();
  }
  f.workers = await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 });
}, 120_000);
