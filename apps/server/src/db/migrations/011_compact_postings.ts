import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: smaller postings, written for less (issue #11 pt 5). A 5 KB document has hundreds
 * of postings, and indexing them was most of ingestion's database time and write-ahead log:
 * - a posting names its collection by a bigint key (`search_collections`), its document by
 *   `documents.seq` and its granularity by a smallint (engine/search/postgres.ts), instead of two
 *   36-character ids and a word in the row and in the primary key;
 * - no foreign key on postings and rows (one lookup and row lock per posting): a statement-level
 *   trigger on `documents` deletes a deleted document's postings and rows in the deleting
 *   statement's transaction, cascades from collections and organizations included, and the
 *   indexing transaction locks its documents against deletion once (engine/search/postgres.ts).
 * The postings move to the new table as they are. Indexed documents without any (a database that
 * came from migration 006 through 007) get theirs once every migration has run (db/database.ts
 * migrate), written as the engine writes them now. SQLite: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create table search_collections (
      collection_id text primary key references collections (id) on delete cascade,
      key bigint generated always as identity unique
    )`.execute(db);
  await sql`insert into search_collections (collection_id) select id from collections order by created_at, id`.execute(db);

  // Fixed-width columns first: no alignment padding in each of the many rows.
  await sql`
    create table search_postings_011 (
      collection_key bigint not null,
      row_seq bigint not null,
      document_seq bigint not null,
      tf integer not null,
      length integer not null,
      granularity smallint not null,
      term text collate "C" not null
    )`.execute(db);
  await sql`
    insert into search_postings_011 (collection_key, row_seq, document_seq, tf, length, granularity, term)
    select k.key, p.row_seq, d.seq, p.tf, p.length, case p.granularity when 'documents' then 0 when 'pages' then 1 when 'coarse' then 2 else 3 end, p.term
    from search_postings p join search_collections k on k.collection_id = p.collection_id join documents d on d.id = p.document_id
    order by 1, 6, 7, 2`.execute(db);
  await sql`drop table search_postings`.execute(db);
  await sql`alter table search_postings_011 rename to search_postings`.execute(db);
  await sql`alter table search_postings add primary key (collection_key, granularity, term, row_seq)`.execute(db);
  await sql`create index search_postings_document on search_postings (document_seq)`.execute(db);

  await sql`alter table search_rows add column document_seq bigint`.execute(db);
  await sql`update search_rows r set document_seq = d.seq from documents d where d.id = r.document_id`.execute(db);
  await sql`alter table search_rows alter column document_seq set not null`.execute(db);
  // Its foreign key and index go with it.
  await sql`alter table search_rows drop column document_id`.execute(db);
  await sql`create index search_rows_document on search_rows (document_seq)`.execute(db);

  await sql`
    create function search_documents_removed() returns trigger language plpgsql as $$ begin
      delete from search_postings where document_seq in (select seq from removed);
      delete from search_rows where document_seq in (select seq from removed);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger search_documents_removed after delete on documents
    referencing old table as removed for each statement execute function search_documents_removed()`.execute(db);

}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop trigger if exists search_documents_removed on documents`.execute(db);
  await sql`drop function if exists search_documents_removed`.execute(db);
  await sql`drop table if exists search_collections`.execute(db);
}
