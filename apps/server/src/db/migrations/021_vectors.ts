import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the vectors of collections' rows (engine/search/postgres-vectors.ts), in pgvector's
 * `vector` type, when the database has the extension; without it, nothing is made and search
 * stays lexical (the server says so at start). A document's vectors go with it (a trigger, as
 * its postings). SQLite keeps vectors in each collection's search file: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // The migration runs in a transaction: a refused extension rolls back to here, not the whole of it.
  await sql`savepoint vector_extension`.execute(db);
  try {
    await sql`create extension if not exists vector`.execute(db);
  } catch {
    await sql`rollback to savepoint vector_extension`.execute(db);
    return;
  }
  // The extension may live in a schema outside the search path (installed before, elsewhere): named in full.
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector'`.execute(db);
  const vector = sql`${sql.id(rows[0]!.schema)}.vector`;
  await sql`
    create table search_vectors (
      collection_id text not null,
      granularity smallint not null,
      row_seq bigint not null,
      document_seq bigint not null,
      embedder text not null,
      embedding ${vector} not null,
      primary key (collection_id, granularity, row_seq)
    )`.execute(db);
  await sql`create index search_vectors_document on search_vectors (document_seq)`.execute(db);
  await sql`
    create function search_vectors_removed() returns trigger language plpgsql as $$
    begin
      delete from search_vectors where document_seq in (select seq from removed);
      return null;
    end $$`.execute(db);
  await sql`create trigger documents_vectors_removed after delete on documents referencing old table as removed for each statement execute function search_vectors_removed()`.execute(db);
}
