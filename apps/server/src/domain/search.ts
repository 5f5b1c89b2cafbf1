import type { DocumentMetadata, TopDocumentsRequest, TopPagesRequest, TopSnippetsRequest } from '@sift/contracts';
import type { EngineServices } from '../engine/engine.ts';
import type { DocumentHit, SearchRequest } from '../engine/search/index.ts';
import type { FilterNode } from '../engine/search/filter-node.ts';
import type { Database } from '../db/schema.ts';
import { countTokens } from '../engine/ingest/tokens.ts';
import { findQueriedCollection } from './collections.ts';
import { parseMetadataFilter } from './metadata-filter.ts';
import { pageImageUrls } from './page-images.ts';
import type { ProviderActor } from './provider-actor.ts';
import { RERANK_DOCUMENT_CHARS, requireReranker, rerankHits } from './rerank-hits.ts';
import type { CollectionRef, QueryType } from './usage-events.ts';

/**
 * Queries of the provider API: BM25 ranking per granularity (engine/search), scores in 0..1, the
 * metadata filter, and one query usage event per call. `latency_mode: "high"` ranks with the
 * query expanded by pseudo-relevance feedback (query-expansion.ts); `reranker` then reorders the
 * retrieved candidates by that model (rerank-hits.ts).
 */

/** The index request of a query: "high" adds the weighted terms of the expanded query. */
async function searchRequest(
  { search }: EngineServices,
  collectionId: string,
  input: { query: string; k: number; latency_mode: 'low' | 'high' },
  filter: FilterNode | null,
): Promise<SearchRequest> {
  const request: SearchRequest = { collectionId, query: input.query, k: input.k, filter };
  if (input.latency_mode === 'high') request.terms = await search.expandedQuery(collectionId, input.query, filter);
  return request;
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

async function documentResults(hits: Omit<DocumentHit, 'score'>[], scores: Map<string, number>, includeMetadata: boolean, actor: ProviderActor) {
  const seen = new Set<string>();
  const unique = hits.filter((hit) => !seen.has(hit.documentId) && seen.add(hit.documentId));
  const fileUrls = await actor.fileUrls(unique.map((hit) => hit.documentId));
  return unique.map((hit, i) => ({
    path: hit.path,
    score: scores.get(hit.documentId) ?? 0,
    metadata: includeMetadata ? (JSON.parse(hit.metadata!) as DocumentMetadata) : null,
    file_url: fileUrls[i]!,
  }));
}

function recordQuery(
  { queryUsage }: ProviderActor,
  collection: CollectionRef,
  queryType: QueryType,
  query: string | null,
  results: { content?: string | null }[],
  startedAt: number,
) {
  queryUsage.record(collection, queryType, {
    queryBytes: query ? utf8(query) : 0,
    queriedBytes: results.reduce((total, result) => total + (result.content ? utf8(result.content) : 0), 0),
    queryTokens: query ? countTokens(query) : 0,
    results: results.length,
    timeMs: performance.now() - startedAt,
  });
}

export async function topDocuments(database: Database, engine: EngineServices, actor: ProviderActor, input: TopDocumentsRequest) {
  const startedAt = performance.now();
  requireReranker(input.reranker);
  const collection = await findQueriedCollection(database, actor, input.collection_name);
  const filter = parseMetadataFilter(input.filter);
  const retrieved =
    input.query === null
      ? await engine.search.filteredDocuments(collection.collectionId, filter, input.k)
      : await engine.search.topDocuments(await searchRequest(engine, collection.collectionId, { ...input, query: input.query }, filter));
  const texts = input.reranker ? await engine.search.openings(retrieved.map((hit) => hit.documentId), RERANK_DOCUMENT_CHARS) : new Map<string, string>();
  const hits = await rerankHits(database, actor, { reranker: input.reranker, query: input.query, hits: retrieved, textOf: (hit) => texts.get(hit.documentId) ?? '' });
  const results = await documentResults(hits, new Map(hits.map((hit) => [hit.documentId, hit.score])), input.include_metadata, actor);
  recordQuery(actor, collection, 'documents', input.query, results.map(() => ({})), startedAt);
  return { results };
}

export async function topPages(database: Database, engine: EngineServices, actor: ProviderActor, input: TopPagesRequest) {
  const startedAt = performance.now();
  requireReranker(input.reranker);
  const collection = await findQueriedCollection(database, actor, input.collection_name);
  const filter = parseMetadataFilter(input.filter);
  const request = await searchRequest(engine, collection.collectionId, input, filter);
  // The reranker reads the pages even when the client does not.
  const retrieved = await engine.search.topPages({
    ...request,
    includeContent: input.include_content || input.reranker != null,
    includeMetadata: input.include_metadata,
  });
  const hits = await rerankHits(database, actor, { reranker: input.reranker, query: input.query, hits: retrieved, textOf: (hit) => hit.content ?? '' });
  const imageUrls = await pageImageUrls(database, actor, hits);
  const results = hits.map((hit, position) => ({
    path: hit.path,
    page_index: hit.pageIndex,
    score: hit.score,
    content: input.include_content ? hit.content : null,
    image_url: imageUrls[position]!,
  }));
  const best = new Map<string, number>();
  for (const hit of hits) best.set(hit.documentId, Math.max(best.get(hit.documentId) ?? 0, hit.score));
  const document_results = await documentResults(hits, best, input.include_metadata, actor);
  recordQuery(actor, collection, 'pages', input.query, results, startedAt);
  return { results, document_results };
}

export async function topSnippets(database: Database, engine: EngineServices, actor: ProviderActor, input: TopSnippetsRequest) {
  const startedAt = performance.now();
  requireReranker(input.reranker);
  const collection = await findQueriedCollection(database, actor, input.collection_name);
  const filter = parseMetadataFilter(input.filter);
  const granularity = input.precise_responses ? 'fine' : 'coarse';
  const request = await searchRequest(engine, collection.collectionId, input, filter);
  const retrieved = await engine.search.topSnippets({ ...request, granularity, includeMetadata: input.include_document_metadata });
  const hits = await rerankHits(database, actor, { reranker: input.reranker, query: input.query, hits: retrieved, textOf: (hit) => hit.content });
  const results = hits.map((hit) => ({
    path: hit.path,
    start_index: hit.startIndex,
    end_index: hit.endIndex,
    page_span: [hit.pageStart, hit.pageEnd] as [number, number],
    content: hit.content,
    score: hit.score,
  }));
  const best = new Map<string, number>();
  for (const hit of hits) best.set(hit.documentId, Math.max(best.get(hit.documentId) ?? 0, hit.score));
  const document_results = await documentResults(hits, best, input.include_document_metadata, actor);
  recordQuery(actor, collection, granularity, input.query, results, startedAt);
  return { results, document_results };
}
