import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: document usage events are appended here by the transactions of the actions they
 * count, and added into `document_usage` about once a second (db/document-usage-pending.ts).
 * Upserted in each upload's transaction, the minute's row (and its hourly rollup) stayed locked
 * until that transaction committed, so concurrent uploads to one collection waited on each other
 * for much of their time, every server of an installation in the same queue.
 * SQLite has one writer, whose group commit already writes one row update per group.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create table document_usage_pending (
      id bigserial primary key,
      window_start bigint not null,
      organization_id text not null references organizations (id) on delete cascade,
      collection_id text not null,
      collection_name text not null,
      event_type text not null,
      event_count bigint not null default 0,
      total_file_size_bytes bigint not null default 0,
      total_content_tokens bigint not null default 0,
      total_llm_tokens bigint not null default 0,
      total_embedding_tokens bigint not null default 0,
      total_coarse_chunks bigint not null default 0,
      total_fine_chunks bigint not null default 0,
      total_pages bigint not null default 0,
      total_ocr_pages bigint not null default 0,
      total_time_taken_ms bigint not null default 0
    )`.execute(db);
  await sql`create index document_usage_pending_organization on document_usage_pending (organization_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop table document_usage_pending`.execute(db);
}
