import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { postingsKeys } from './025_postings_in_blocks.ts';

/**
 * PostgreSQL: a one-page document whose page is its whole text has its postings written once,
 * under granularity code 4, read by document and page searches alike (engine/search/postgres-blocks.ts
 * ONE_PAGE_DOCUMENT). Nothing to change on the way up: postings written before keep a copy for
 * the document (0) and one for the page (1), which searches read as before, until the document is
 * indexed again. SQLite: nothing to do.
 */
export async function up(): Promise<void> {}

/** Each code-4 row back to a document's row (0) and a page's (1) in its block, which then holds both (a block of no one granularity). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const key of await postingsKeys(db)) {
    const table = sql.table(`search_postings_${key}`);
    await sql`
      insert into ${table} (block, granularity, term, row_seqs, document_seqs, tfs, lengths)
      select block, 0, term, document_seqs, document_seqs, tfs, lengths from ${table} where granularity = 4`.execute(db);
    await sql`update ${table} set granularity = 1 where granularity = 4`.execute(db);
  }
  await sql`update search_block_sizes set granularity = null, postings = 2 * postings where granularity = 4`.execute(db);
}
