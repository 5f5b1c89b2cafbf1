import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type Clock, systemClock } from '../../clock.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Upkeep while ingestion is idle: VACUUM (ANALYZE) of the tables searches read once a tenth of
 * their rows (and at least 1,000) were added or changed since the last one. Autovacuum does the
 * same within minutes where it runs (it is off on some installations); until it has, the planner
 * guesses, and index-only scans of the postings and of the metadata a filter looks up read rows
 * from the table too. Raw files whose text is their document's are deleted once indexed
 * (file_in_text): vacuumed, the emptied pages at the end of `blobs` go back to the disk.
 * One step a quiet period (false): statistics views lag the vacuum by up to a second. A table
 * another server (or autovacuum) is vacuuming or analyzing is left to it: waiting for it would
 * outlast lock_timeout.
 */
export async function vacuumStaleTables(db: Kysely<DB>): Promise<boolean> {
  const stale = await tablesChanged(db, sql`n_mod_since_analyze >= 1000 + n_live_tup / 10 or n_ins_since_vacuum >= 1000 + n_live_tup / 10`);
  for (const relname of stale) await sql`vacuum (analyze, skip_locked) ${sql.id(relname)}`.execute(db);
  return false;
}

/**
 * The planner's statistics of the same tables refreshed while ingestion runs, at most every
 * STATISTICS_CHECK_MS: a long upload fills the queue with tens of thousands of documents that
 * statistics taken before it never saw, and a plan made for a few rows reads them all (the claim
 * of the next batch). A table another worker is analyzing is left to it.
 */
export class FreshStatistics {
  private checkedAt = -Infinity;

  constructor(private readonly clock: Clock = systemClock) {}

  async step(db: Kysely<DB>): Promise<void> {
    if (this.clock.nowMs() - this.checkedAt < STATISTICS_CHECK_MS) return;
    this.checkedAt = this.clock.nowMs();
    for (const relname of await tablesChanged(db, sql`n_mod_since_analyze >= 1000 + n_live_tup / 10`)) {
      await sql`analyze (skip_locked) ${sql.id(relname)}`.execute(db);
    }
  }
}

const STATISTICS_CHECK_MS = 5_000;

/**
 * The tables searches, claims, status counts and indexing read (postings, row counts, metadata,
 * documents, raw files, pages and snippets) for which `changed` holds. Indexing finds a batch's
 * snippets by document: planned without statistics, that was a parallel scan of every snippet.
 */
async function tablesChanged(db: Kysely<DB>, changed: RawBuilder<unknown>): Promise<string[]> {
  const { rows } = await sql<{ relname: string }>`select relname from pg_stat_user_tables
    where schemaname = current_schema()
      and (relname ~ '^search_postings_[0-9]+$'
        or relid in ('search_rows'::regclass, 'document_metadata'::regclass, 'documents'::regclass, 'blobs'::regclass, 'pages'::regclass, 'chunks'::regclass))
      and (${changed})`.execute(db);
  return rows.map((row) => row.relname);
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
  /** Per table whose last rebuild was cut short, when it is tried again and the wait after that. */
  private readonly retries = new Map<string, { at: number; waitMs: number }>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** One table's indexes rebuilt; false when none needs it. */
  async step(db: Kysely<DB>): Promise<boolean> {
    if (await dropUnfinishedRebuilds(db)) return true;
    const { rows } = await sql<{ relname: string; changed: string; live: string }>`
      select relname, n_tup_upd - n_tup_hot_upd + n_tup_del as changed, n_live_tup as live from pg_stat_user_tables
      where schemaname = current_schema() and relname in (${sql.join(CHANGING_TABLES)})`.execute(db);
    for (const { relname, changed, live } of rows) {
      if (!this.due(relname, Number(changed), Number(live))) continue;
      this.changedAtRebuild.set(relname, Number(changed));
      const retry = this.retries.get(relname);
      this.retries.delete(relname);
      try {
        await sql`reindex table concurrently ${sql.id(relname)}`.execute(db);
      } catch (error) {
        const waitMs = retry ? Math.min(2 * retry.waitMs, LONGEST_RETRY_MS) : FIRST_RETRY_MS;
        this.retries.set(relname, { at: this.clock.nowMs() + waitMs, waitMs });
        throw error;
      }
      return true;
    }
    return false;
  }

  /**
   * A table is due once it has had as many rows changed since its last rebuild as it holds, or
   * when a rebuild of it that was cut short is to be tried again: a table that stopped changing
   * would otherwise keep its bloated indexes.
   */
  private due(relname: string, changed: number, live: number): boolean {
    const retry = this.retries.get(relname);
    if (retry) return this.clock.nowMs() >= retry.at;
    // Counters start again after a crash or a statistics reset.
    const since = changed - Math.min(this.changedAtRebuild.get(relname) ?? 0, changed);
    return since >= Math.max(live, 1000);
  }
}

/** The first wait before a rebuild cut short is tried again, and the longest it doubles to. */
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 3_600_000;

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
