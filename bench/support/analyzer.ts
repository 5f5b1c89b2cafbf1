import { analyze, queryTerms } from '../../apps/server/src/engine/search/analyzer.ts';

/**
 * How Sift's full-text index sees text, for the floors: the same analyzer (engine/search/analyzer.ts:
 * stop words, Porter stemming, in JavaScript) into FTS5 tables of FTS5's own layout over its terms
 * (`ascii` tokenizer, positions kept), a query's terms OR-ed and ranked by FTS5's bm25(). Kept here, in one place, so
 * the floors follow the engine when its analyzer changes. The floor's indexing time includes
 * the analyzer: it is the tokenizer now.
 */
export const floorAnalyzer = {
  name: "Sift's analyzer (engine/search/analyzer.ts) into FTS5 tokenize='ascii', query terms OR-ed",
  /** The FTS5 declaration of a table: FTS5's defaults over the analyzer's terms. */
  declaration: (table: string) => `create virtual table ${table} using fts5(content, tokenize='ascii')`,
  /** What goes into the FTS5 column for a text. */
  text: (text: string): string => analyze(text).join(' '),
  /** The FTS5 MATCH expression of a query, or null when it has no term. */
  match(query: string): string | null {
    const terms = queryTerms(query);
    return terms.length === 0 ? null : terms.map((term) => `"${term}"`).join(' OR ');
  },
};
