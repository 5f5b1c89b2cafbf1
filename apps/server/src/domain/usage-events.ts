import type { ExpressionBuilder, Kysely } from 'kysely';
import { appendsDocumentUsage, DOCUMENT_USAGE_COUNTERS } from '../db/document-usage-pending.ts';
import type { DB, GroupSums } from '../db/schema.ts';
import type { DocumentCounters, IngestCollection } from '../engine/ingest/usage.ts';

/**
 * Usage events of spec §3, added into one row per organization, collection, kind and minute.
 * Callers pass the transaction of the action they count, so an event exists iff its action did
 * (on PostgreSQL a document event is appended in it and added into its row within a second).
 */
export const minuteWindow = (at = Date.now()): number => Math.floor(at / 60_000) * 60;

type UsageTable = 'document_usage' | 'query_usage' | 'reranker_usage' | 'embed_usage';

/**
 * The ON CONFLICT update of a usage row: the new event's counters are added to those already
 * counted in the same window, never overwritten.
 */
export function addingCounters<T extends UsageTable>(table: T, counters: readonly (keyof DB[T] & string)[]) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (eb: ExpressionBuilder<any, any>) =>
    Object.fromEntries(counters.map((column) => [column, eb(`${table}.${column}`, '+', eb.ref(`excluded.${column}`))]));
}

/** The collection usage is recorded for: the engine's shape of it (it records ingestion through the domain). */
export type CollectionRef = IngestCollection;


export async function addDocumentEvent(
  trx: Kysely<DB>,
  collection: CollectionRef,
  eventType: 'added' | 'deleted' | 'parsed' | 'indexed',
  counters: DocumentCounters,
  windowStart = minuteWindow(),
): Promise<void> {
  const row = {
    window_start: windowStart,
    organization_id: collection.organizationId,
    collection_id: collection.collectionId,
    collection_name: collection.collectionName,
    event_type: eventType,
    event_count: counters.count ?? 1,
    total_file_size_bytes: counters.fileBytes ?? 0,
    total_content_tokens: counters.contentTokens ?? 0,
    total_llm_tokens: 0,
    total_embedding_tokens: 0,
    total_coarse_chunks: counters.coarseChunks ?? 0,
    total_fine_chunks: counters.fineChunks ?? 0,
    total_pages: counters.pages ?? 0,
    total_ocr_pages: counters.ocrPages ?? 0,
    total_time_taken_ms: Math.round(counters.timeMs ?? 0),
  };
  // PostgreSQL: appended, and added in about a second later (db/document-usage-pending.ts), so
  // concurrent uploads to a collection never wait on its minute's row.
  if (appendsDocumentUsage(trx)) {
    await trx.insertInto('document_usage_pending').values(row).execute();
    return;
  }
  await trx
    .insertInto('document_usage')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'window_start', 'collection_id', 'event_type'])
        .doUpdateSet(addingCounters('document_usage', DOCUMENT_USAGE_COUNTERS)),
    )
    .execute();
}

/**
 * A document event of an upload in a grouped transaction (db/group-commit.ts): the uploads
 * committed together add to one row update per collection, kind and minute, written with them.
 */
export function addGroupedDocumentEvent(
  group: GroupSums,
  collection: CollectionRef,
  eventType: 'added' | 'deleted' | 'parsed' | 'indexed',
  counters: DocumentCounters,
): void {
  const windowStart = minuteWindow();
  group.add(
    `document|${collection.collectionId}|${eventType}|${windowStart}`,
    { count: counters.count ?? 1, ...counters },
    (trx, sums) => addDocumentEvent(trx, collection, eventType, sums, windowStart),
  );
}

export type QueryType = DB['query_usage']['query_type'];

export interface QueryCounters {
  queryBytes: number;
  queriedBytes: number;
  queryTokens: number;
  results: number;
  timeMs: number;
}

/** `count` queries of one kind in the minute starting at `windowStart` (see query-usage.ts). */
export async function addQueryEvents(
  trx: Kysely<DB>,
  collection: CollectionRef,
  queryType: QueryType,
  windowStart: number,
  count: number,
  counters: QueryCounters,
): Promise<void> {
  const row = {
    window_start: windowStart,
    organization_id: collection.organizationId,
    collection_id: collection.collectionId,
    collection_name: collection.collectionName,
    query_type: queryType,
    event_count: count,
    total_query_bytes: counters.queryBytes,
    total_queried_bytes: counters.queriedBytes,
    total_query_tokens: counters.queryTokens,
    total_results_returned: counters.results,
    total_time_taken_ms: Math.round(counters.timeMs),
  };
  const added = ['event_count', 'total_query_bytes', 'total_queried_bytes', 'total_query_tokens', 'total_results_returned', 'total_time_taken_ms'] as const;
  await trx
    .insertInto('query_usage')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'window_start', 'collection_id', 'query_type'])
        .doUpdateSet(addingCounters('query_usage', added)),
    )
    .execute();
}
