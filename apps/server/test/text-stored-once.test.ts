import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import * as compactRows from '../src/db/migrations/022_compact_rows.ts';
import * as textInPieces from '../src/db/migrations/024_text_in_pieces.ts';
import * as postingsInBlocks from '../src/db/migrations/025_postings_in_blocks.ts';
import * as blockSizes from '../src/db/migrations/026_block_sizes.ts';
import * as rowCounts from '../src/db/migrations/027_row_counts.ts';
import type { Database } from '../src/db/schema.ts';
import { analyze } from '../src/engine/search/analyzer.ts';
import { wholeTextSql } from '../src/engine/search/slices.ts';
import { GRANULARITIES, searchDirectory, searchFilePath } from '../src/engine/search/sqlite-file.ts';
import { type Harness, startHarness } from './harness.ts';
import { everyRanking } from './support/every-ranking.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { searchCorpus } from './search-corpus.ts';

/**
 * Migration 018: pages and snippets stored their text (and SQLite's search files held the
 * analyzed terms of every row); a data folder or database of that layout, with today's rows,
 * moves to the text stored once when the server opens it, every search answering as before.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
/** Characters outside the Basic Multilingual Plane before the words searched: SQL's substr counts them once, JavaScript twice. */
const ASTRAL = 'Seals \u{1F9AD} and gulls \u{1F426} share the harbor.\n\nA lantern \u{1F3EE} lights the harbor tower at night.';

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  for (const [collection, seed] of [['one', 41], ['two', 42]] as const) {
    await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
    for (const document of searchCorpus(seed, 12, collection)) {
      await h.call('/v1/documents/add-document', { collection_name: collection, path: document.path, content: { type: 'text-pages', pages: document.pages } }, f.keyA);
    }
  }
  await h.call('/v1/documents/add-document', { collection_name: 'one', path: 'astral.txt', content: { type: 'text-pages', pages: [ASTRAL, `\u{1F30A} ${ASTRAL}`] } }, f.keyA);
  await f.workers.idle();
}, 120_000);
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

/**
 * Puts the database back the way migrations up to 016 left it: pages and snippets holding their
 * text, no text_astral, and (SQLite) search files of that format, FTS5 tables holding the
 * analyzed terms of every row, without the engine's statistics.
 */
async function backToMigration016(database: Database) {
  const { db } = database;
  // Migration 025's blocks, 024's pieces and 022's snippets keyed by seq and files kept as text, undone first.
  await rowCounts.down(db as never);
  await blockSizes.down(db as never);
  await sql`delete from kysely_migration where name in ('026_block_sizes', '027_row_counts')`.execute(db);
  await postingsInBlocks.down(db as never);
  await sql`delete from kysely_migration where name = '025_postings_in_blocks'`.execute(db);
  await textInPieces.down(db as never);
  await sql`delete from kysely_migration where name = '024_text_in_pieces'`.execute(db);
  await compactRows.down(db as never);
  await sql`delete from kysely_migration where name = '022_compact_rows'`.execute(db);
  for (const table of ['pages', 'chunks'] as const) {
    await sql`alter table ${sql.table(table)} add column content text not null default ''`.execute(db);
    const { rows } = await sql<{ seq: number; start_index: number; end_index: number; text: string }>`
      select r.seq, r.start_index, r.end_index, d.text from ${sql.table(table)} r join documents d on d.id = r.document_id`.execute(db);
    for (const row of rows) await sql`update ${sql.table(table)} set content = ${row.text.slice(row.start_index, row.end_index)} where seq = ${row.seq}`.execute(db);
  }
  await sql`alter table documents drop column text_astral`.execute(db);
  await sql`delete from kysely_migration where name = '018_text_stored_once'`.execute(db);
  if (database.dialect === 'postgres') return;

  for (const name of readdirSync(searchDirectory(database.sqlitePath!))) rmSync(join(searchDirectory(database.sqlitePath!), name), { force: true });
  const main = new SQLite(database.sqlitePath!, { readonly: true });
  const rowsOf = {
    documents: `select seq as rowid, coalesce(text, '') as content from documents where collection_id = ? and index_status = 'indexed'`,
    pages: 'select seq as rowid, content from pages where collection_id = ?',
    coarse: `select seq as rowid, content from chunks where collection_id = ? and granularity = 'coarse'`,
    fine: `select seq as rowid, content from chunks where collection_id = ? and granularity = 'fine'`,
  };
  for (const { id } of main.prepare<[], { id: string }>('select id from collections').all()) {
    const file = new SQLite(searchFilePath(database.sqlitePath!, id));
    file.pragma('journal_mode = WAL');
    file.exec('create table index_writes (writes integer not null); insert into index_writes values (0);');
    for (const granularity of GRANULARITIES) {
      file.exec(`create virtual table fts_${granularity} using fts5(content, tokenize='ascii')`);
      const insert = file.prepare(`insert into fts_${granularity} (rowid, content) values (?, ?)`);
      for (const row of main.prepare<[string], { rowid: number; content: string }>(rowsOf[granularity]).all(id)) insert.run(row.rowid, analyze(row.content).join(' '));
    }
    file.close();
  }
  main.close();
}

test('a database of migration 016 keeps each text once after 018, every search answering as before, content included', async () => {
  const before = await everyRanking(h.database, h.files, 'harbor lantern seals');
  // A text with characters outside the Basic Multilingual Plane: its snippets and pages are cut
  // where JavaScript counts (UTF-16), as the offsets say.
  const stored = await h.database.db.selectFrom('documents').select(['collection_id', wholeTextSql('documents').as('text'), 'text_astral']).where('path', '=', 'astral.txt').executeTakeFirstOrThrow();
  expect(stored.text_astral).toBe(1);
  const request = { collectionId: stored.collection_id, query: 'lantern tower harbor', k: 50, filter: null, includeMetadata: false };
  for (const granularity of ['coarse', 'fine'] as const) {
    const hits = (await h.engine.search.topSnippets({ ...request, granularity })).filter((hit) => hit.path === 'astral.txt');
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.content).toBe(stored.text!.slice(hit.startIndex, hit.endIndex));
  }
  const pages = (await h.engine.search.topPages({ ...request, includeContent: true })).filter((hit) => hit.path === 'astral.txt');
  expect(pages.map((hit) => hit.content).sort()).toEqual([ASTRAL, `\u{1F30A} ${ASTRAL}`].sort());
  await f.workers.stop();
  await backToMigration016(h.database);

  const reopened = await openDatabase({ dataDir: h.config.dataDir, databaseUrl: h.config.databaseUrl });
  try {
    expect(await everyRanking(reopened, h.files, 'harbor lantern seals')).toEqual(before);
    const migrated = await reopened.db.selectFrom('documents').select(['path', 'text_astral']).where('text_astral', '=', 1).execute();
    expect(migrated.map((row) => row.path)).toEqual(['astral.txt']);
    const columns = async (table: string) =>
      reopened.dialect === 'postgres'
        ? (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = ${table} and table_schema = current_schema()`.execute(reopened.db)).rows
        : (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(reopened.db)).rows;
    for (const table of ['pages', 'chunks']) expect((await columns(table)).map((column) => column.name)).not.toContain('content');
  } finally {
    await reopened.destroy();
  }
  f.workers = await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 });
}, 120_000);
