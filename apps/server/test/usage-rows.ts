import type { QueryType } from '../src/domain/usage-events.ts';
import type { Database } from '../src/db/schema.ts';

/**
 * Usage rows at explicit times, for tests, the browser specs' seed and the benchmark. Actions record
 * their own rows (domain/usage-events.ts, domain/models/reranker-usage.ts) at the current minute;
 * these add into the same rows the same way (upsert adding up), so the rollup triggers see what
 * they see in production.
 */
export interface DocumentRow {
  at: number; // Unix seconds (any second of the minute)
  organizationId: string;
  collection: string;
  eventType: 'added' | 'deleted' | 'parsed' | 'indexed';
  count?: number;
  fileBytes?: number;
  ocrPages?: number;
  contentTokens?: number;
}
export interface QueryRow {
  at: number;
  organizationId: string;
  collection: string;
  queryType?: QueryType;
  count?: number;
  queryBytes?: number;
}
export interface RerankRow {
  at: number;
  organizationId: string;
  model?: string;
  explicit?: boolean;
  count?: number;
  requestBytes?: number;
  tokens?: number;
}

const minute = (at: number) => Math.floor(at / 60) * 60;
/** Collection ids are stable per name within an organization (a deterministic stand-in). */
const collectionId = (organizationId: string, name: string) => `${organizationId}:${name}`;

export async function insertDocumentRows({ db }: Database, rows: DocumentRow[]): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto('document_usage')
      .values({
        window_start: minute(row.at),
        organization_id: row.organizationId,
        collection_id: collectionId(row.organizationId, row.collection),
        collection_name: row.collection,
        event_type: row.eventType,
        event_count: row.count ?? 1,
        total_file_size_bytes: row.fileBytes ?? 0,
        total_content_tokens: row.contentTokens ?? 0,
        total_llm_tokens: 0,
        total_embedding_tokens: 0,
        total_coarse_chunks: 0,
        total_fine_chunks: 0,
        total_pages: row.ocrPages ?? 0,
        total_ocr_pages: row.ocrPages ?? 0,
        total_time_taken_ms: 0,
      })
      .onConflict((c) =>
        c.columns(['organization_id', 'window_start', 'collection_id', 'event_type']).doUpdateSet((eb) => ({
          event_count: eb('document_usage.event_count', '+', eb.ref('excluded.event_count')),
          total_file_size_bytes: eb('document_usage.total_file_size_bytes', '+', eb.ref('excluded.total_file_size_bytes')),
          total_content_tokens: eb('document_usage.total_content_tokens', '+', eb.ref('excluded.total_content_tokens')),
          total_pages: eb('document_usage.total_pages', '+', eb.ref('excluded.total_pages')),
          total_ocr_pages: eb('document_usage.total_ocr_pages', '+', eb.ref('excluded.total_ocr_pages')),
        })),
      )
      .execute();
  }
}

export async function insertQueryRows({ db }: Database, rows: QueryRow[]): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto('query_usage')
      .values({
        window_start: minute(row.at),
        organization_id: row.organizationId,
        collection_id: collectionId(row.organizationId, row.collection),
        collection_name: row.collection,
        query_type: row.queryType ?? 'documents',
        event_count: row.count ?? 1,
        total_query_bytes: row.queryBytes ?? 0,
        total_queried_bytes: 0,
        total_query_tokens: 0,
        total_results_returned: 0,
        total_time_taken_ms: 0,
      })
      .onConflict((c) =>
        c.columns(['organization_id', 'window_start', 'collection_id', 'query_type']).doUpdateSet((eb) => ({
          event_count: eb('query_usage.event_count', '+', eb.ref('excluded.event_count')),
          total_query_bytes: eb('query_usage.total_query_bytes', '+', eb.ref('excluded.total_query_bytes')),
        })),
      )
      .execute();
  }
}

export async function insertRerankRows({ db }: Database, rows: RerankRow[]): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto('reranker_usage')
      .values({
        window_start: minute(row.at),
        organization_id: row.organizationId,
        reranker_model: row.model ?? 'zerank-2',
        explicit_call: row.explicit === false ? 0 : 1,
        event_count: row.count ?? 1,
        total_request_bytes: row.requestBytes ?? 0,
        total_reranker_tokens: row.tokens ?? 0,
        total_documents_reranked: 0,
        total_time_taken_ms: 0,
        total_reranking_time_ms: 0,
      })
      .onConflict((c) =>
        c.columns(['organization_id', 'window_start', 'reranker_model', 'explicit_call']).doUpdateSet((eb) => ({
          event_count: eb('reranker_usage.event_count', '+', eb.ref('excluded.event_count')),
          total_request_bytes: eb('reranker_usage.total_request_bytes', '+', eb.ref('excluded.total_request_bytes')),
          total_reranker_tokens: eb('reranker_usage.total_reranker_tokens', '+', eb.ref('excluded.total_reranker_tokens')),
        })),
      )
      .execute();
  }
}
