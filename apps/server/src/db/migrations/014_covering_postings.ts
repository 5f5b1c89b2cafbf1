import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: a search reads each query term's postings through the primary key and then took
 * every posting's document, frequency and length from the table, about a page for each posting.
 * With those columns in the key's index (INCLUDE), a search reads the index alone once vacuum has
 * marked the table's pages all-visible (the search index's upkeep does, postgres.ts), and serves
 * more searches a second. The index is rebuilt here, in the migration's transaction. SQLite:
 * nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_postings drop constraint search_postings_pkey,
    add constraint search_postings_pkey primary key (collection_key, granularity, term, row_seq) include (document_seq, tf, length)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_postings drop constraint search_postings_pkey,
    add constraint search_postings_pkey primary key (collection_key, granularity, term, row_seq)`.execute(db);
}
