import type { Kysely } from 'kysely';
import type { FilterNode } from '../../domain/metadata-filter.ts';
import type { DB } from '../schema.ts';

/** One search: inside one collection, the query text, how many results, an optional metadata filter. */
export interface SearchRequest {
  collectionId: string;
  query: string;
  k: number;
  filter: FilterNode | null;
}

/** Every hit carries its document's id, path and metadata (JSON text) so no second lookup is needed. */
interface HitDocument {
  documentId: string;
  path: string;
  metadata: string;
  score: number;
}
export type DocumentHit = HitDocument;
export interface PageHit extends HitDocument {
  pageIndex: number;
  content: string;
}
export interface SnippetHit extends HitDocument {
  startIndex: number;
  endIndex: number;
  pageStart: number;
  pageEnd: number;
  content: string;
}

/** The full-text index of one dialect: BM25-like ranking per granularity, scores in 0..1. */
export interface SearchIndex {
  topDocuments(request: SearchRequest): Promise<DocumentHit[]>;
  topPages(request: SearchRequest): Promise<PageHit[]>;
  topSnippets(request: SearchRequest & { granularity: 'coarse' | 'fine' }): Promise<SnippetHit[]>;
  /** Adds a finished document's text to the document-level index, inside the indexing transaction. */
  indexDocumentText(trx: Kysely<DB>, document: { seq: number; collectionId: string; text: string }): Promise<void>;
  /** Drops a document's text from the document-level index (before it is indexed again). */
  unindexDocumentText(trx: Kysely<DB>, seq: number): Promise<void>;
}
