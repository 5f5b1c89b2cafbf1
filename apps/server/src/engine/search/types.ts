import type { FilterNode } from './filter-node.ts';

/** An analyzed term (analyzer.ts) and its weight in a weighted query. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** One search: inside one collection, the query text, how many results, an optional metadata filter. */
export interface SearchRequest {
  collectionId: string;
  query: string;
  k: number;
  filter: FilterNode | null;
  /**
   * A weighted query in place of the query text's distinct terms (relevance feedback): rows rank
   * by the sum over these terms of weight x that term's BM25, with the same statistics.
   */
  terms?: readonly WeightedTerm[];
  /**
   * The query's vector (vectors.ts), set by the search engine when an embedder is configured: the
   * rows nearest it are fused with the lexical ranking, if the collection has vectors of its embedder.
   */
  vector?: QueryVector;
}

/** A query's vector (vectors.ts queryVector). */
export interface QueryVector {
  values: Float32Array;
  /** The embedderKey of the vectors it may be compared with. */
  embedder: string;
}

/** Rows of one granularity in a collection's index, and how many of them hold each term. */
export type Granularity = 'documents' | 'pages' | 'coarse' | 'fine';

/**
 * Every hit carries its document's id, path and metadata (JSON text) so no second lookup is
 * needed; a page or snippet hit's metadata may be null unless the request asked for it
 * (PostgreSQL then leaves the documents table out of the search, postgres.ts).
 */
interface HitDocument {
  documentId: string;
  path: string;
  metadata: string | null;
  score: number;
}
export type DocumentHit = HitDocument;
export interface PageHit extends HitDocument {
  pageIndex: number;
  /** Null unless asked for: pages are long, and reading 25 of them costs more than the match. */
  content: string | null;
}
export interface SnippetHit extends HitDocument {
  startIndex: number;
  endIndex: number;
  pageStart: number;
  pageEnd: number;
  content: string;
}

/**
 * The full-text index of one dialect, the one door to search: one index per collection, BM25
 * over the analyzer's terms (analyzer.ts) per granularity, the same order on both dialects,
 * scores in 0..1.
 */
export interface SearchIndex {
  topDocuments(request: SearchRequest): Promise<DocumentHit[]>;
  topPages(request: SearchRequest & { includeContent: boolean; includeMetadata: boolean }): Promise<PageHit[]>;
  topSnippets(request: SearchRequest & { granularity: 'coarse' | 'fine'; includeMetadata: boolean }): Promise<SnippetHit[]>;
  /**
   * Of these terms, those found in more than `share` (0..1) of a collection's rows of one
   * granularity. Each count stops at that bound: a common term costs no more to judge than a
   * rare one, where counting its rows would read its whole posting list.
   */
  commonTerms(collectionId: string, granularity: Granularity, terms: readonly string[], share: number): Promise<Set<string>>;
  /**
   * Makes these documents' text, pages and snippets (committed to the database already)
   * searchable in place of their older rows, in one transaction of the index.
   */
  indexDocuments(documentIds: string[]): Promise<void>;
  /**
   * A new collection's index: PostgreSQL its key; SQLite nothing, the collection's search file
   * coming with its first indexing (an empty collection costs no file).
   */
  createCollection(collectionId: string): Promise<void>;
  /** Drops the index of collections just deleted (their rows are gone from the database). */
  dropCollections(collectionIds: string[]): Promise<void>;
  /**
   * Removes what deleted rows left in the index (SQLite's search file; PostgreSQL folds its
   * statistics deltas); ingestion calls it when idle, deletions right after they commit.
   */
  applyDeletions(): Promise<void>;
  /**
   * One bounded step of upkeep while ingestion is idle (SQLite merges the FTS5 segments of a
   * collection written since; PostgreSQL analyzes search tables that changed much); false when
   * nothing is left to do.
   */
  upkeepStep(): Promise<boolean>;
  /**
   * How this database finds a query's nearest vectors: through an approximate index (pgvector's
   * HNSW; hnswlib on SQLite), by scanning every row (SQLite without hnswlib-node), or not at all
   * (PostgreSQL without pgvector when it migrated).
   */
  vectorSearch(): Promise<'approximate' | 'exact' | 'unavailable'>;
}
