import { analyze, queryTerms } from './analyzer.ts';
import { bm25Weight } from './rank.ts';
import type { FilterNode } from './filter-node.ts';
import type { SearchIndex, WeightedTerm } from './types.ts';
import { queryWeights, relevanceModel, RM3_EXPANSION_TERMS, RM3_FEEDBACK_DOCUMENTS, RM3_MAX_DOCUMENT_SHARE, rm3Query } from './relevance-feedback.ts';

/**
 * `latency_mode: "high"`: the query expanded by RM3 pseudo-relevance feedback (relevance-feedback.ts),
 * for a second pass at any granularity. The first pass ranks the collection's coarse snippets
 * (passages of about 2,000 characters) by BM25 with the query's own term frequencies, the query
 * model RM3 interpolates; the best RM3_FEEDBACK_DOCUMENTS of them are the feedback. Passages
 * rather than fine snippets (whose feedback ranks clearly worse) or whole documents (which rank
 * no better): a passage's text is bounded whatever the documents' size, so the cost is too.
 * The terms too common to expand with are judged by their share of the collection's documents,
 * as Anserini's filter is: counting a term's documents up to the bound reads far fewer postings
 * than counting its passages does in a collection of long documents.
 * Everything here is deterministic and reads the same statistics on both databases.
 */

/**
 * Relevance-model terms judged common or not, before the common ones are left out: each costs a
 * count. Twice the terms kept: judging more ranks no better on CISI (`npm run bench -- quality`), and
 * costs more counts.
 */
const CANDIDATE_TERMS = 2 * RM3_EXPANSION_TERMS;

/** The weighted terms of the expanded query; empty when the query has no searchable term. */
export async function expandedQuery(index: SearchIndex, collectionId: string, query: string, filter: FilterNode | null): Promise<WeightedTerm[]> {
  const kept = new Set(queryTerms(query));
  const terms = analyze(query).filter((term) => kept.has(term));
  if (terms.length === 0) return [];
  const feedback = await index.topSnippets({ collectionId, query, filter, granularity: 'coarse', includeMetadata: false, k: RM3_FEEDBACK_DOCUMENTS, terms: queryWeights(terms) });
  if (feedback.length === 0) return queryWeights(terms);
  const model = relevanceModel(feedback.map((hit) => ({ terms: analyze(hit.content), score: bm25Weight(hit.score) }))).slice(0, CANDIDATE_TERMS);
  const common = await index.commonTerms(collectionId, 'documents', model.map(([term]) => term), RM3_MAX_DOCUMENT_SHARE);
  return rm3Query(terms, model, (term) => common.has(term));
}
