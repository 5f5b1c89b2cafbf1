import type { Generated } from 'kysely';

/**
 * Usage events of spec §3, one row per organization, collection (or model), kind and minute
 * window, added to in the same transaction as the action they count (on PostgreSQL, document
 * events are appended to document_usage_pending in it and added in within a second, migration
 * 016). `window_start` is Unix seconds at the start of the minute. Collections are named as well as identified so history
 * survives a deleted collection and can be filtered by name.
 */
export interface UsageTables {
  document_usage: {
    window_start: number;
    organization_id: string;
    collection_id: string;
    collection_name: string;
    event_type: 'added' | 'deleted' | 'parsed' | 'indexed';
    event_count: number;
    total_file_size_bytes: number;
    total_content_tokens: number;
    total_llm_tokens: number;
    total_embedding_tokens: number;
    total_coarse_chunks: number;
    total_fine_chunks: number;
    total_pages: number;
    /** Pages read through OCR (images): the OCR metric. */
    total_ocr_pages: number;
    total_time_taken_ms: number;
  };
  /** PostgreSQL: document usage events not yet added into document_usage (migration 016). */
  document_usage_pending: UsageTables['document_usage'] & { id: Generated<number> };
  query_usage: {
    window_start: number;
    organization_id: string;
    collection_id: string;
    collection_name: string;
    query_type: 'fine' | 'coarse' | 'pages' | 'documents';
    event_count: number;
    total_query_bytes: number;
    total_queried_bytes: number;
    total_query_tokens: number;
    total_results_returned: number;
    total_time_taken_ms: number;
  };
  embed_usage: {
    window_start: number;
    organization_id: string;
    embedding_model: string;
    explicit_call: number;
    event_count: number;
    total_request_bytes: number;
    total_request_tokens: number;
    total_time_taken_ms: number;
  };
  reranker_usage: {
    window_start: number;
    organization_id: string;
    reranker_model: string;
    explicit_call: number;
    event_count: number;
    total_request_bytes: number;
    total_reranker_tokens: number;
    total_documents_reranked: number;
    total_time_taken_ms: number;
    total_reranking_time_ms: number;
  };
}
