import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { postingsKeys } from './025_postings_in_blocks.ts';

/**
 * PostgreSQL: ANALYZE of a postings table leaves its arrays (rows, documents, term frequencies,
 * lengths) alone. No plan reads their statistics (searches find rows by granularity, term and
 * block), and gathering them, the most common elements of every sampled array, was most of the
 * cost of the statistics refreshed while ingestion runs. New postings tables are made so
 * (engine/search/postgres-blocks.ts). SQLite: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await setArrayStatistics(db, 0);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await setArrayStatistics(db, -1);
}

/** `target` for each postings table's arrays: 0 gathers none, -1 the default. */
async function setArrayStatistics(db: Kysely<unknown>, target: number): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const columns = ['row_seqs', 'document_seqs', 'tfs', 'lengths'].map((column) => sql`alter column ${sql.id(column)} set statistics ${sql.lit(target)}`);
  for (const key of await postingsKeys(db)) await sql`alter table ${sql.table(`search_postings_${key}`)} ${sql.join(columns)}`.execute(db);
}
