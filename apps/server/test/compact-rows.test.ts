import { readdirSync } from 'node:fs';
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
import * as pagesFileInText from '../src/db/migrations/028_pages_file_in_text.ts';
import type { Database } from '../src/db/schema.ts';
import { searchDirectory } from '../src/engine/search/sqlite-file.ts';
import { sha256 } from '../src/file-store.ts';
import { type Harness, startHarness } from './harness.ts';
import { everyRanking } from './support/every-ranking.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { searchCorpus } from './search-corpus.ts';

/**
 * Migration 022: a data folder (SQLite) or database (PostgreSQL) of migration 021's layout, its
 * snippets keyed by their document's UUID and collection and every raw file kept, moves to
 * snippets keyed by seq, plain text files kept only as their text, and text-pages files only as
 * their pages (migration 028) when the server opens it; documents, every search and every raw
 * download answer as before.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
/** The paths uploaded as plain text: their files are their text. */
const plainPaths: string[] = [];
/** The paths uploaded as text pages: their files are the JSON of their pages (migration 028). */
const pagesPaths: string[] = [];
const PLAIN = 'Grebes dive for minnows under the harbor lantern.\nA second line, café and \u{1F986}.';

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  for (const [collection, seed] of [['one', 51], ['two', 52]] as const) {
    await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
    for (const [i, document] of searchCorpus(seed, 12, collection).entries()) {
      // Half plain text (a file that is its text), half pages (a file of JSON, made from the pages).
      const content = i % 2 === 0 ? { type: 'text', text: document.pages.join('\n\n') } : { type: 'text-pages', pages: document.pages };
      (i % 2 === 0 ? plainPaths : pagesPaths).push(document.path);
      await h.call('/v1/documents/add-document', { collection_name: collection, path: document.path, content }, f.keyA);
    }
  }
  const auto = { type: 'auto', base64_data: Buffer.from(PLAIN).toString('base64') };
  await h.call('/v1/documents/add-document', { collection_name: 'one', path: 'grebe.md', content: auto }, f.keyA);
  await h.call('/v1/documents/add-document', { collection_name: 'two', path: 'grebe.txt', content: { type: 'text', text: PLAIN } }, f.keyA);
  plainPaths.push('grebe.md', 'grebe.txt');
  plainPaths.sort();
  pagesPaths.sort();
  await f.workers.idle();
}, 120_000);
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

/** Every document through the API, with its content, and its raw file through its file link. */
async function documentsAndFiles() {
  const found: unknown[] = [];
  for (const collection of ['one', 'two']) {
    const listed = await h.call('/v1/documents/get-document-info-list', { collection_name: collection, limit: 1024 }, f.keyA);
    for (const { path } of listed.body.documents as { path: string }[]) {
      const info = await h.call('/v1/documents/get-document-info', { collection_name: collection, path, include_content: true }, f.keyA);
      const { file_url: link, ...document } = info.body.document;
      const url = new URL(link);
      const file = await h.app.inject({ method: 'GET', url: url.pathname + url.search });
      found.push([document, file.statusCode, file.headers['content-type'], file.body]);
    }
  }
  return found;
}

/** Puts the database back the way migration 021 left it, and SQLite's search files in format 2. */
async function backToMigration021(database: Database) {
  await pagesFileInText.down(database.db as never);
  await sql`delete from kysely_migration where name = '028_pages_file_in_text'`.execute(database.db);
  await rowCounts.down(database.db as never);
  await blockSizes.down(database.db as never);
  await sql`delete from kysely_migration where name in ('026_block_sizes', '027_row_counts')`.execute(database.db);
  await postingsInBlocks.down(database.db as never);
  await sql`delete from kysely_migration where name = '025_postings_in_blocks'`.execute(database.db);
  await textInPieces.down(database.db as never);
  await sql`delete from kysely_migration where name = '024_text_in_pieces'`.execute(database.db);
  await compactRows.down(database.db as never);
  await sql`delete from kysely_migration where name = '022_compact_rows'`.execute(database.db);
  if (database.dialect === 'postgres') return;
  for (const name of readdirSync(searchDirectory(database.sqlitePath!)).filter((file) => file.endsWith('.db'))) {
    const file = new SQLite(join(searchDirectory(database.sqlitePath!), name));
    file.pragma('auto_vacuum = none');
    file.exec('vacuum');
    file.pragma('user_version = 2');
    file.close();
  }
}

const columnsOf = async (database: Database, table: string) =>
  database.dialect === 'postgres'
    ? (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = ${table} and table_schema = current_schema()`.execute(database.db)).rows.map((row) => row.name)
    : (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(database.db)).rows.map((row) => row.name);
const blobCount = async (database: Database) => Number((await database.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

test('a database of migration 021 keeps documents, searches and raw downloads after 022, with snippets by seq and plain text and text-pages files not kept twice', async () => {
  const before = { rankings: await everyRanking(h.database, h.files, 'grebes harbor lantern'), documents: await documentsAndFiles() };
  const plain = async (database: Database) => (await database.db.selectFrom('documents').select('path').where('file_in_text', '=', 1).orderBy('path').execute()).map((row) => row.path);
  const ofPages = async (database: Database) => (await database.db.selectFrom('documents').select('path').where('file_in_text', '=', 2).orderBy('path').execute()).map((row) => row.path);
  expect(await plain(h.database)).toEqual(plainPaths);
  expect(await ofPages(h.database)).toEqual(pagesPaths);
  const files = async (database: Database, plainToo: boolean) => {
    let query = database.db.selectFrom('documents').select('file_hash').distinct();
    if (!plainToo) query = query.where('file_in_text', '=', 0);
    return (await query.execute()).length;
  };
  const kept = await files(h.database, false);
  await f.workers.stop();
  await backToMigration021(h.database);
  expect(await columnsOf(h.database, 'chunks')).toContain('document_id');
  // Every file kept, as before 022 (the two grebes share one).
  expect(await blobCount(h.database)).toBe(await files(h.database, true));

  const reopened = await openDatabase({ dataDir: h.config.dataDir, databaseUrl: h.config.databaseUrl });
  try {
    expect(await everyRanking(reopened, h.files, 'grebes harbor lantern')).toEqual(before.rankings);
    expect(await documentsAndFiles()).toEqual(before.documents);
    expect(await columnsOf(reopened, 'chunks')).not.toContain('document_id');
    expect(await columnsOf(reopened, 'chunks')).not.toContain('collection_id');
    expect(await plain(reopened)).toEqual(plainPaths);
    expect(await ofPages(reopened)).toEqual(pagesPaths);
    expect(await blobCount(reopened)).toBe(kept);
    expect(await reopened.db.selectFrom('blobs').select('hash').where('hash', '=', sha256(Buffer.from(PLAIN))).executeTakeFirst()).toBeUndefined();
    if (reopened.sqlitePath) {
      for (const name of readdirSync(searchDirectory(reopened.sqlitePath)).filter((file) => file.endsWith('.db'))) {
        const file = new SQLite(join(searchDirectory(reopened.sqlitePath), name), { readonly: true });
        expect([file.pragma('user_version', { simple: true }), file.pragma('auto_vacuum', { simple: true })]).toEqual([4, 2]);
        file.close();
      }
    }
  } finally {
    await reopened.destroy();
  }
  f.workers = await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 });

  // A document deleted after the migration takes its snippets out of the index with it.
  const found = async () => (await h.call('/v1/queries/top-snippets', { collection_name: 'two', query: 'grebes minnows', k: 3, precise_responses: true }, f.keyA)).body.results.map((hit: { path: string }) => hit.path);
  expect(await found()).toContain('grebe.txt');
  expect((await h.call('/v1/documents/delete-document', { collection_name: 'two', path: 'grebe.txt' }, f.keyA)).status).toBe(200);
  await f.workers.idle();
  expect(await found()).not.toContain('grebe.txt');
}, 120_000);
