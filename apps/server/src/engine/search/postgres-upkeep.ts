import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Upkeep while ingestion is idle: VACUUM (ANALYZE) of the tables searches read once a tenth of
 * their rows (and at least 1,000) were added or changed since the last one. Autovacuum does the
 * same within minutes where it runs (it is off on some installations); until it has, the planner
 * guesses, and index-only scans of the postings and of the metadata a filter looks up read rows
 * from the table too. Raw files whose text is their document's are deleted once indexed
 * (file_in_text): vacuumed, the emptied pages at the end of `blobs` go back to the disk.
 * One step a quiet period (false): statistics views lag the vacuum by up to a second.
 */
export async function vacuumStaleTables(db: Kysely<DB>): Promise<boolean> {
  const stale = await sql<{ relname: string }>`select relname from pg_stat_user_tables
    where schemaname = current_schema()
      and (relname ~ '^search_postings_[0-9]+$' or relid in ('search_rows'::regclass, 'document_metadata'::regclass, 'documents'::regclass, 'blobs'::regclass))
      and (n_mod_since_analyze >= 1000 + n_live_tup / 10 or n_ins_since_vacuum >= 1000 + n_live_tup / 10)`.execute(db);
  for (const { relname } of stale.rows) await sql`vacuum (analyze) ${sql.id(relname)}`.execute(db);
  return false;
}

/**
 * The engine's bookkeeping tables whose rows change after they are written: a document's status
 * and lease, a merged block's documents, a raw file deleted once its text is indexed.
 */
const CHANGING_TABLES = ['documents', 'search_document_blocks', 'blobs'];

/**
 * Rebuilds the indexes of a bookkeeping table once it has had as many rows updated (other than
 * in place) or deleted since their last rebuild as it holds. Every such change adds an entry to
 * each of its indexes (a document's status and lease are indexed, so none of its updates is in
 * place); vacuum lets those entries' space be reused but never gives it back, so after an
 * ingestion the indexes hold several times what they index. Rebuilt concurrently: writes go on.
 * The postings tables are not among them: compaction copies those whole (postgres-blocks.ts).
 */
export class IndexRebuilds {
  /** Per table, its rows changed (the statistics' running count) at its last rebuild by this server. */
  private readonly changedAtRebuild = new Map<string, number>();

  /** One table's indexes rebuilt; false when none needs it. */
  async step(db: Kysely<DB>): Promise<boolean> {
    if (await dropUnfinishedRebuilds(db)) return true;
    const { rows } = await sql<{ relname: string; changed: string; live: string }>`
      select relname, n_tup_upd - n_tup_hot_upd + n_tup_del as changed, n_live_tup as live from pg_stat_user_tables
      where schemaname = current_schema() and relname in (${sql.join(CHANGING_TABLES)})`.execute(db);
    for (const { relname, changed, live } of rows) {
      // Counters start again after a crash or a statistics reset.
      const since = Number(changed) - Math.min(this.changedAtRebuild.get(relname) ?? 0, Number(changed));
      if (since < Math.max(Number(live), 1000)) continue;
      // Tried once per round of changes: one that failed (a lock waited for too long) waits for the next.
      this.changedAtRebuild.set(relname, Number(changed));
      await sql`reindex table concurrently ${sql.id(relname)}`.execute(db);
      return true;
    }
    return false;
  }
}

/**
 * A concurrent rebuild cut short (a lock waited for too long, a server stopped) leaves its new
 * indexes behind, invalid yet written to by every change: they go first. True when there were any.
 */
async function dropUnfinishedRebuilds(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relnamespace = current_schema()::regnamespace and not i.indisvalid and c.relname like '%\_ccnew%'`.execute(db);
  for (const { name } of rows) await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
  return rows.length > 0;
}
