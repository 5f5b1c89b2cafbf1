import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

/** A collection's postings table as this migration made it, one row a posting (migration 025 packs them). */
const postingsTable = (collectionKey: number): RawBuilder<unknown> => sql.table(`search_postings_${collectionKey}`);

async function createPostingsTable(db: Kysely<unknown>, collectionKey: number): Promise<void> {
  await sql`
    create table if not exists ${postingsTable(collectionKey)} (
      row_seq bigint not null,
      document_seq bigint not null,
      tf integer not null,
      length integer not null,
      granularity smallint not null,
      term text collate "C" not null,
      primary key (granularity, term, row_seq) include (document_seq, tf, length)
    )`.execute(db);
  await sql`create index if not exists ${sql.id(`search_postings_${collectionKey}_document`)} on ${postingsTable(collectionKey)} (document_seq)`.execute(db);
}

/**
 * PostgreSQL: each collection's postings in a table of their own (engine/search/postgres.ts,
 * postingsTable), so that a search reads only its collection's index and is planned for its
 * statistics: in one table for all, a small collection's searches slowed beside another
 * organization's large one. A posting no longer names its collection. The postings
 * move collection by collection in the migration's transaction, and the trigger that deletes a
 * deleted document's postings finds them in its collection's table. SQLite: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { rows } = await sql<{ key: string }>`
    select k.key from search_collections k where exists (select 1 from search_postings p where p.collection_key = k.key) order by k.key`.execute(db);
  for (const { key } of rows) {
    await createPostingsTable(db, Number(key));
    await sql`
      insert into ${postingsTable(Number(key))} (row_seq, document_seq, tf, length, granularity, term)
      select row_seq, document_seq, tf, length, granularity, term from search_postings where collection_key = ${key}
      order by granularity, term, row_seq`.execute(db);
  }
  await sql`
    create or replace function search_documents_removed() returns trigger language plpgsql as $$
    declare
      collection_key bigint;
      seqs bigint[];
    begin
      delete from search_rows where document_seq in (select seq from removed);
      for collection_key, seqs in
        select k.key, array_agg(r.seq) from removed r join search_collections k on k.collection_id = r.collection_id group by k.key
      loop
        -- None when nothing of the collection was indexed; gone with a collection deleted first.
        if to_regclass('search_postings_' || collection_key) is not null then
          execute format('delete from %I where document_seq = any($1)', 'search_postings_' || collection_key) using seqs;
        end if;
      end loop;
      return null;
    end $$`.execute(db);
  await sql`drop table search_postings`.execute(db);
}

/** Back to one table for all collections (migrations 011 and 014). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create table search_postings (
      collection_key bigint not null,
      row_seq bigint not null,
      document_seq bigint not null,
      tf integer not null,
      length integer not null,
      granularity smallint not null,
      term text collate "C" not null
    )`.execute(db);
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname ~ '^search_postings_[0-9]+$'`.execute(db);
  for (const { name } of rows) {
    const key = Number(name.slice('search_postings_'.length));
    await sql`
      insert into search_postings (collection_key, row_seq, document_seq, tf, length, granularity, term)
      select ${key}, row_seq, document_seq, tf, length, granularity, term from ${sql.table(name)}`.execute(db);
    await sql`drop table ${sql.table(name)}`.execute(db);
  }
  await sql`alter table search_postings add constraint search_postings_pkey primary key (collection_key, granularity, term, row_seq) include (document_seq, tf, length)`.execute(
    db,
  );
  await sql`create index search_postings_document on search_postings (document_seq)`.execute(db);
  await sql`
    create or replace function search_documents_removed() returns trigger language plpgsql as $$ begin
      delete from search_postings where document_seq in (select seq from removed);
      delete from search_rows where document_seq in (select seq from removed);
      return null;
    end $$`.execute(db);
}
