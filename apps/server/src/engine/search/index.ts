import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Backend } from '../backend.ts';
import type { SearchActivity } from '../search-activity.ts';
import type { FilterNode } from './filter-node.ts';
import { filterSql } from './filter.ts';
import { postgresSearchIndex } from './postgres.ts';
import { expandedQuery } from './query-expansion.ts';
import { deleteSnippetsOf } from './snippet-deletion.ts';
import { contentFromOfRow, contentOfRow, openingSql, slicedContent, wholeTextSql } from './slices.ts';
import { sqliteSearchIndex } from './sqlite.ts';
import type { DocumentHit, SearchIndex, SearchRequest, WeightedTerm } from './types.ts';
import { queryVector, type VectorEmbedder } from './vectors.ts';

export type { DocumentHit, Granularity, PageHit, SearchIndex, SearchRequest, SnippetHit, WeightedTerm } from './types.ts';
export type { VectorEmbedder } from './vectors.ts';

/** Search as the domain uses it: the backend's index, and what every backend shares. */
export interface SearchEngine extends SearchIndex {
  /** Indexed documents of a collection that pass a filter, by path: top-documents without a query. */
  filteredDocuments(collectionId: string, filter: FilterNode | null, k: number): Promise<DocumentHit[]>;
  /** `latency_mode: "high"`: the query's terms weighted by pseudo-relevance feedback (query-expansion.ts). */
  expandedQuery(collectionId: string, query: string, filter: FilterNode | null): Promise<WeightedTerm[]>;
  /** Deletes these documents' snippets a bounded number at a time, ahead of the documents (snippet-deletion.ts). */
  deleteSnippetsOf(documentIds: string[]): Promise<void>;
  /** A document's page by index, its text sliced from the document's when asked for; undefined when it has none such. */
  page(documentId: string, pageIndex: number, includeContent: boolean): Promise<PageOfDocument | undefined>;
  /** A document's whole text; null while it has none (not yet indexed). */
  text(documentId: string): Promise<string | null>;
  /** The first `units` of each of these documents' text, by id: what a reranker reads of a document. */
  openings(documentIds: string[], units: number): Promise<Map<string, string>>;
}

export interface PageOfDocument {
  id: string;
  pageIndex: number;
  content: string | null;
}

/**
 * The search engine of one database handle on `backend`: one index, made here once. Each query
 * answered is noted in `activity`, which ingestion paces itself by. With an `embedder`, documents
 * are embedded as they are indexed and searches are hybrid (vectors.ts); without one, nothing of
 * that runs.
 */
export function createSearchEngine(database: Database, backend: Backend, activity: SearchActivity, embedder: VectorEmbedder | null = null): SearchEngine {
  const index: SearchIndex = backend === 'postgres' ? postgresSearchIndex(database, embedder) : sqliteSearchIndex(database, embedder);
  const answered = <T>(result: Promise<T>) => result.finally(() => activity.noteAnswered());
  // The query's vector; without one (no embedder, the provider down) the search is lexical.
  const withVector = async <Request extends SearchRequest>(request: Request): Promise<Request> => {
    const vector = embedder && request.query.trim() !== '' ? await queryVector(embedder, request.query) : null;
    return vector ? { ...request, vector } : request;
  };
  return {
    topDocuments: (request) => answered(withVector(request).then((r) => index.topDocuments(r))),
    topPages: (request) => answered(withVector(request).then((r) => index.topPages(r))),
    topSnippets: (request) => answered(withVector(request).then((r) => index.topSnippets(r))),
    commonTerms: (...args) => index.commonTerms(...args),
    indexDocuments: (documentIds) => index.indexDocuments(documentIds),
    createCollection: (collectionId) => index.createCollection(collectionId),
    dropCollections: (collectionIds) => index.dropCollections(collectionIds),
    applyDeletions: () => index.applyDeletions(),
    upkeepStep: () => index.upkeepStep(),
    vectorSearch: () => index.vectorSearch(),
    filteredDocuments: (collectionId, filter, k) => answered(filteredDocuments(database, collectionId, filter, k)),
    expandedQuery: (collectionId, query, filter) => expandedQuery(index, collectionId, query, filter),
    deleteSnippetsOf: (documentIds) => deleteSnippetsOf(database.db, documentIds),
    page: (documentId, pageIndex, includeContent) => pageOfDocument(database, documentId, pageIndex, includeContent),
    text: (documentId) => textOfDocument(database, documentId),
    openings: (documentIds, units) => openingsOf(database, documentIds, units),
  };
}

async function textOfDocument(database: Database, documentId: string): Promise<string | null> {
  const row = await database.db.selectFrom('documents').select(wholeTextSql('documents').as('text')).where('id', '=', documentId).executeTakeFirst();
  return row?.text ?? null;
}

async function openingsOf(database: Database, documentIds: string[], units: number): Promise<Map<string, string>> {
  if (documentIds.length === 0) return new Map();
  const rows = await database.db.selectFrom('documents').select(['id', openingSql('documents', units).as('text')]).where('id', 'in', documentIds).execute();
  // substr counts code points: an astral text's opening is cut to `units` here.
  return new Map(rows.map((row) => [row.id, (row.text ?? '').slice(0, units)]));
}

async function filteredDocuments(database: Database, collectionId: string, filter: FilterNode | null, k: number): Promise<DocumentHit[]> {
  const condition = filter ? filterSql(filter) : sql`1 = 1`;
  const { rows } = await sql<{ documentId: string; path: string; metadata: string }>`
    select d.id as "documentId", d.path as path, d.metadata as metadata from documents d
    where d.collection_id = ${collectionId} and d.index_status = 'indexed' and ${condition}
    order by d.path limit ${k}`.execute(database.db);
  return rows.map((row) => ({ ...row, score: 0 }));
}

async function pageOfDocument(database: Database, documentId: string, pageIndex: number, includeContent: boolean): Promise<PageOfDocument | undefined> {
  const page = await database.db
    .selectFrom('pages')
    .select(['id', 'page_index', 'start_index', 'end_index'])
    .select(includeContent ? contentOfRow('pages').as('content') : sql<null>`null`.as('content'))
    .select(includeContent ? contentFromOfRow('pages').as('content_from') : sql<number>`0`.as('content_from'))
    .where('document_id', '=', documentId)
    .where('page_index', '=', pageIndex)
    .executeTakeFirst();
  if (!page) return undefined;
  return { id: page.id, pageIndex: page.page_index, content: includeContent ? slicedContent(page.content, page.start_index, page.end_index, page.content_from) : null };
}
