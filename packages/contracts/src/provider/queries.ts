import * as z from 'zod';
import { CollectionName, LatencyMode, MetadataFilter, ModelId, QueryChars, QueryText } from './common.ts';

const k = (max: number) => z.number().int().min(1, `k must be between 1 and ${max}`).max(max, `k must be between 1 and ${max}`);

export const TopDocumentsRequest = z.object({
  collection_name: CollectionName,
  /** `null` skips relevance: a plain metadata-filtered listing. */
  query: QueryText.nullable(),
  k: k(2048),
  filter: MetadataFilter.nullish(),
  include_metadata: z.boolean().default(false),
  /** Reranks the retrieved candidates with this model (an id of /models/rerank). */
  reranker: ModelId.nullish(),
  latency_mode: LatencyMode,
});
export type TopDocumentsRequest = z.infer<typeof TopDocumentsRequest>;

export const TopPagesRequest = z.object({
  collection_name: CollectionName,
  query: QueryText,
  k: k(1024),
  filter: MetadataFilter.nullish(),
  include_content: z.boolean().default(false),
  include_metadata: z.boolean().default(false),
  /** Not in the OpenAPI description's TopPagesRequest; accepted as on the other queries. */
  reranker: ModelId.nullish(),
  latency_mode: LatencyMode,
});
export type TopPagesRequest = z.infer<typeof TopPagesRequest>;

export const TopSnippetsRequest = z.object({
  collection_name: CollectionName,
  query: QueryChars,
  k: k(128),
  /** Reranks the retrieved candidates with this model (an id of /models/rerank). */
  reranker: ModelId.nullish(),
  filter: MetadataFilter.nullish(),
  /** true: fine snippets (about 200 characters); false: coarse (about 2000). */
  precise_responses: z.boolean().default(false),
  include_document_metadata: z.boolean().default(false),
  /** Sift's own option (the reference has it on top-documents and top-pages only), with the same meaning. */
  latency_mode: LatencyMode.describe(
    'Sift\'s own option, as on top-documents and top-pages: "low" (the default) ranks by BM25; "high" takes longer and expands the query by pseudo-relevance feedback (RM3) from the collection\'s best passages, which finds relevant snippets that do not repeat the query\'s words.',
  ),
});
export type TopSnippetsRequest = z.infer<typeof TopSnippetsRequest>;

export const DocumentResult = z.object({
  path: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullable(),
  file_url: z.string(),
});
export type DocumentResult = z.infer<typeof DocumentResult>;

export const PageResult = z.object({
  path: z.string(),
  page_index: z.number().int(),
  score: z.number(),
  content: z.string().nullable(),
  image_url: z.string().nullable(),
});
export type PageResult = z.infer<typeof PageResult>;

export const SnippetResult = z.object({
  path: z.string(),
  start_index: z.number().int(),
  end_index: z.number().int(),
  page_span: z.tuple([z.number().int(), z.number().int()]),
  content: z.string(),
  score: z.number(),
});
export type SnippetResult = z.infer<typeof SnippetResult>;

export const TopDocumentsResponse = z.object({ results: z.array(DocumentResult) });
export type TopDocumentsResponse = z.infer<typeof TopDocumentsResponse>;
export const TopPagesResponse = z.object({ results: z.array(PageResult), document_results: z.array(DocumentResult) });
export type TopPagesResponse = z.infer<typeof TopPagesResponse>;
export const TopSnippetsResponse = z.object({ results: z.array(SnippetResult), document_results: z.array(DocumentResult) });
export type TopSnippetsResponse = z.infer<typeof TopSnippetsResponse>;
