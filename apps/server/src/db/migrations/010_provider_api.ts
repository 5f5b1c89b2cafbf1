import { type Kysely, PostgresAdapter } from 'kysely';
import { createUsageRollups, dropUsageRollups } from '../usage-rollups.ts';

/**
 * The rest of the provider API (issue #15):
 * - organizations: the admin API's overrides of the reranker's byte budget, and its ZDR flag;
 * - api_keys: who created a key the admin API added, as the platform names them;
 * - documents: whether the document's pages have images (PDFs and images), known at upload;
 * - page_images: each page's JPEG, made on first request and kept (deleted with its document);
 * - embed_usage: one row per organization, embedding model and minute, with its hourly rollup;
 * - the Rerank metric counts every reranker call, the queries' `reranker` option included (it
 *   counted explicit /models/rerank calls only, the only ones there were): its rollup is rebuilt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const column of ['override_bpm_fast', 'override_bpm_slow', 'override_max_bytes_per_request']) {
    await db.schema.alterTable('organizations').addColumn(column, 'bigint').execute();
  }
  await db.schema.alterTable('organizations').addColumn('zdr', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('api_keys').addColumn('created_by_name', 'text').execute();
  await db.schema.alterTable('documents').addColumn('has_page_images', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('page_images')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('page_index', 'integer', (c) => c.notNull())
    .addColumn('jpeg', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_images_pk', ['document_id', 'page_index'])
    .execute();

  let embedUsage = db.schema
    .createTable('embed_usage')
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('embedding_model', 'text', (c) => c.notNull())
    .addColumn('explicit_call', 'integer', (c) => c.notNull());
  for (const column of ['event_count', 'total_request_bytes', 'total_request_tokens', 'total_time_taken_ms']) {
    embedUsage = embedUsage.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await embedUsage.addPrimaryKeyConstraint('embed_usage_pk', ['organization_id', 'window_start', 'embedding_model', 'explicit_call']).execute();
  await createUsageRollups(db, ['embed']);
  await dropUsageRollups(db, ['reranker']);
  await createUsageRollups(db, ['reranker']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropUsageRollups(db, ['embed']);
  await db.schema.dropTable('embed_usage').execute();
  await db.schema.dropTable('page_images').execute();
  await db.schema.alterTable('documents').dropColumn('has_page_images').execute();
  await db.schema.alterTable('api_keys').dropColumn('created_by_name').execute();
  for (const column of ['override_bpm_fast', 'override_bpm_slow', 'override_max_bytes_per_request', 'zdr']) {
    await db.schema.alterTable('organizations').dropColumn(column).execute();
  }
}
