import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * One index per collection, over the terms of one analyzer (engine/search/analyzer.ts), ranked by the
 * same BM25 on both dialects.
 *
 * SQLite: `search_deletions` names the collection of each deleted row, since each collection has
 * a search file of its own. The files come when the server opens the database
 * (engine/search/sqlite-file.ts): migration 006's shared search file is removed and each collection's
 * file is built from its stored text, pages and snippets, before the server answers (a one-time
 * rebuild at the speed of indexing).
 *
 * PostgreSQL: the tsvector columns and their GIN indexes give way to postings of analyzed terms
 * per (collection, granularity, term, row), the row lengths, and per-collection statistics kept
 * as deltas (engine/search/postgres.ts). Every indexed document's postings are built from its stored
 * text, pages and snippets by migration 011, in the layout the indexing code writes now (this
 * migration ran that code when it had this layout; it no longer has).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return postgresUp(db);
  for (const trigger of ['documents_search_delete', 'pages_search_delete', 'chunks_search_delete']) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  // The shared tables these rows pointed into are rebuilt per collection: nothing to apply.
  await sql`drop table if exists search_deletions`.execute(db);
  await db.schema
    .createTable('search_deletions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('collection_id', 'text', (c) => c.notNull())
    .addColumn('fts_table', 'text', (c) => c.notNull())
    .addColumn('row_id', 'integer', (c) => c.notNull())
    .execute();
  // Queries leave out deleted rows of their collection and granularity until they are applied.
  await sql`create index search_deletions_rows on search_deletions (collection_id, fts_table, row_id)`.execute(db);
  const deletion = (granularity: string, rowid: string) =>
    `insert into search_deletions (collection_id, fts_table, row_id) values (old.collection_id, ${granularity}, ${rowid})`;
  await sql.raw(`create trigger documents_search_delete after delete on documents begin ${deletion(`'documents'`, 'old.seq')}; end`).execute(db);
  await sql.raw(`create trigger pages_search_delete after delete on pages begin ${deletion(`'pages'`, 'old.seq')}; end`).execute(db);
  await sql.raw(`create trigger chunks_search_delete after delete on chunks begin ${deletion('old.granularity', 'old.seq')}; end`).execute(db);
}

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists documents_text_tsv`.execute(db);
  await sql`drop index if exists pages_tsv`.execute(db);
  await sql`drop index if exists chunks_tsv`.execute(db);
  await sql`alter table documents drop column if exists text_tsv`.execute(db);
  await sql`alter table pages drop column if exists tsv`.execute(db);
  await sql`alter table chunks drop column if exists tsv`.execute(db);

  // Rows of one granularity (documents, pages, coarse, fine): their length in terms, with their
  // document so they leave with it.
  await sql`
    create table search_rows (
      collection_id text not null,
      granularity text not null,
      row_seq bigint not null,
      document_id text not null references documents (id) on delete cascade,
      length integer not null,
      primary key (granularity, row_seq)
    )`.execute(db);
  await sql`create index search_rows_document on search_rows (document_id)`.execute(db);
  // A query reads the postings of its terms in its collection and granularity, nothing else.
  await sql`
    create table search_postings (
      collection_id text not null,
      granularity text not null,
      term text collate "C" not null,
      row_seq bigint not null,
      document_id text not null references documents (id) on delete cascade,
      tf integer not null,
      length integer not null,
      primary key (collection_id, granularity, term, row_seq)
    )`.execute(db);
  await sql`create index search_postings_document on search_postings (document_id)`.execute(db);
  // Rows and tokens per collection and granularity: deltas appended (never one row updated by
  // every indexing transaction), summed by queries, folded by ingestion when idle.
  await sql`
    create table search_stats (
      collection_id text not null,
      granularity text not null,
      rows bigint not null,
      tokens bigint not null
    )`.execute(db);
  await sql`create index search_stats_collection on search_stats (collection_id, granularity)`.execute(db);
  await sql`
    create function search_rows_added() returns trigger language plpgsql as $$ begin
      insert into search_stats (collection_id, granularity, rows, tokens)
      select collection_id, granularity, count(*), sum(length) from added group by collection_id, granularity;
      return null;
    end $$`.execute(db);
  await sql`
    create function search_rows_removed() returns trigger language plpgsql as $$ begin
      insert into search_stats (collection_id, granularity, rows, tokens)
      select collection_id, granularity, -count(*), -sum(length) from removed group by collection_id, granularity;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_rows_added after insert on search_rows referencing new table as added for each statement execute function search_rows_added()`.execute(db);
  await sql`create trigger search_rows_removed after delete on search_rows referencing old table as removed for each statement execute function search_rows_removed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ['search_stats', 'search_postings', 'search_rows']) await sql.raw(`drop table if exists ${table}`).execute(db);
    await sql`drop function if exists search_rows_added`.execute(db);
    await sql`drop function if exists search_rows_removed`.execute(db);
  }
}
