import { type Kysely, sql } from 'kysely';

/**
 * The documents a claim takes alone (engine/queue/document-queue.ts): those retried, and the large
 * ones. They are few, but the queue's index orders every waiting document, so finding them read
 * the whole queue on every claim; through these, only themselves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index documents_queue_retried on documents (created_at) where index_status in ('not_parsed', 'not_indexed') and attempts > 0`.execute(db);
  await sql`create index documents_queue_size on documents (size) where index_status in ('not_parsed', 'not_indexed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index documents_queue_retried`.execute(db);
  await sql`drop index documents_queue_size`.execute(db);
}
