import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SQLite: the FTS5 tables move out of the main file into a search file of their own (see
 * engine/search/sqlite-file.ts), written only by ingestion in transactions of their own, so an upload
 * never waits for full-text indexing. Rows deleted here leave a deletion for that writer to apply
 * (`search_deletions`, filled by triggers in the same transaction as the delete). The search
 * file is rebuilt from pages, chunks and documents when it is missing, as it is after this
 * migration. PostgreSQL keeps its tsvector columns: nothing changes there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['documents_fts_delete', 'pages_fts_insert', 'pages_fts_delete', 'coarse_fts_insert', 'coarse_fts_delete', 'fine_fts_insert', 'fine_fts_delete']) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  for (const table of ['documents_fts', 'pages_fts', 'coarse_fts', 'fine_fts']) await sql.raw(`drop table if exists ${table}`).execute(db);

  await db.schema
    .createTable('search_deletions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('fts_table', 'text', (c) => c.notNull())
    .addColumn('row_id', 'integer', (c) => c.notNull())
    .execute();
  const deletion = (table: string, rowid: string) => `insert into search_deletions (fts_table, row_id) values (${table}, ${rowid})`;
  await sql.raw(`create trigger documents_search_delete after delete on documents begin ${deletion(`'documents_fts'`, 'old.seq')}; end`).execute(db);
  await sql.raw(`create trigger pages_search_delete after delete on pages begin ${deletion(`'pages_fts'`, 'old.seq')}; end`).execute(db);
  await sql.raw(`create trigger chunks_search_delete after delete on chunks begin ${deletion(`old.granularity || '_fts'`, 'old.seq')}; end`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['documents_search_delete', 'pages_search_delete', 'chunks_search_delete']) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await db.schema.dropTable('search_deletions').ifExists().execute();
}
