import type { CreateTableBuilder, Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const counters = (table: CreateTableBuilder<string, any>, columns: string[]) =>
  columns.reduce((builder, column) => builder.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)), table);

export async function up(db: Kysely<unknown>): Promise<void> {
  await counters(
    db.schema
      .createTable('document_usage')
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('collection_name', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull()),
    [
      'event_count', 'total_file_size_bytes', 'total_content_tokens', 'total_llm_tokens', 'total_embedding_tokens',
      'total_coarse_chunks', 'total_fine_chunks', 'total_pages', 'total_ocr_pages', 'total_time_taken_ms',
    ],
  )
    .addPrimaryKeyConstraint('document_usage_pk', ['organization_id', 'window_start', 'collection_id', 'event_type'])
    .execute();
  await counters(
    db.schema
      .createTable('query_usage')
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('collection_id', 'text', (c) => c.notNull())
      .addColumn('collection_name', 'text', (c) => c.notNull())
      .addColumn('query_type', 'text', (c) => c.notNull()),
    ['event_count', 'total_query_bytes', 'total_queried_bytes', 'total_query_tokens', 'total_results_returned', 'total_time_taken_ms'],
  )
    .addPrimaryKeyConstraint('query_usage_pk', ['organization_id', 'window_start', 'collection_id', 'query_type'])
    .execute();
  await counters(
    db.schema
      .createTable('reranker_usage')
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('reranker_model', 'text', (c) => c.notNull())
      .addColumn('explicit_call', 'integer', (c) => c.notNull()),
    ['event_count', 'total_request_bytes', 'total_reranker_tokens', 'total_documents_reranked', 'total_time_taken_ms', 'total_reranking_time_ms'],
  )
    .addPrimaryKeyConstraint('reranker_usage_pk', ['organization_id', 'window_start', 'reranker_model', 'explicit_call'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['reranker_usage', 'query_usage', 'document_usage']) await db.schema.dropTable(table).execute();
}
