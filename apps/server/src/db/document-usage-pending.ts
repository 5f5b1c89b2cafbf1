import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { DB } from './schema.ts';

/** What a document usage row adds up (usage-events.ts writes them, the rollups sum them). */
export const DOCUMENT_USAGE_COUNTERS = [
  'event_count',
  'total_file_size_bytes',
  'total_content_tokens',
  'total_llm_tokens',
  'total_embedding_tokens',
  'total_coarse_chunks',
  'total_fine_chunks',
  'total_pages',
  'total_ocr_pages',
  'total_time_taken_ms',
] as const;

/** PostgreSQL appends document usage events to `document_usage_pending` (migration 016); SQLite upserts them. */
export const appendsDocumentUsage = (db: Kysely<DB>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Adds the pending document usage events into `document_usage` (and so into its hourly rollups)
 * and removes them, in one statement: concurrent folds (every process folds) each take the rows
 * they deleted, so none is counted twice. Usage reads fold first. Nothing to do on SQLite.
 */
export async function foldDocumentUsage(db: Kysely<DB>): Promise<void> {
  if (!appendsDocumentUsage(db)) return;
  const counters = sql.raw(DOCUMENT_USAGE_COUNTERS.join(', '));
  const sums = sql.raw(DOCUMENT_USAGE_COUNTERS.map((column) => `sum(${column})`).join(', '));
  const adding = sql.raw(DOCUMENT_USAGE_COUNTERS.map((column) => `${column} = document_usage.${column} + excluded.${column}`).join(', '));
  await sql`
    with moved as (delete from document_usage_pending returning *)
    insert into document_usage (window_start, organization_id, collection_id, collection_name, event_type, ${counters})
    select window_start, organization_id, collection_id, min(collection_name), event_type, ${sums}
    from moved group by organization_id, window_start, collection_id, event_type
    on conflict (organization_id, window_start, collection_id, event_type) do update set ${adding}`.execute(db);
}

const FOLD_EVERY_MS = 1000;

/** Folds pending document usage once a second, and a last time when stopped. */
export function keepDocumentUsageFolded(db: Kysely<DB>): { stop(): Promise<void> } {
  let folding: Promise<void> = Promise.resolve();
  // A fold that fails (the database restarting) leaves the rows for the next one.
  const fold = () => (folding = folding.then(() => foldDocumentUsage(db)).catch(() => {}));
  const timer = setInterval(() => void fold(), FOLD_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await fold();
    },
  };
}
