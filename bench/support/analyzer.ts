import { queryTerms } from '../../apps/server/src/db/search/query-terms.ts';

/**
 * How Sift's full-text index sees text, for the floors: the same FTS5 tokenizer, the same
 * text transformation before it, and the same match expression for a query. Kept here, in one
 * place, so the floors follow the engine when its analyzer changes.
 */
export const floorAnalyzer = {
  name: "FTS5 tokenize='porter unicode61 remove_diacritics 2', query terms OR-ed (db/search/query-terms.ts)",
  tokenize: 'porter unicode61 remove_diacritics 2',
  /** What goes into the FTS5 column for a text. */
  text: (text: string): string => text,
  /** The FTS5 MATCH expression of a query, or null when it has no term. */
  match(query: string): string | null {
    const terms = queryTerms(query);
    return terms.length === 0 ? null : terms.map((term) => `"${term}"`).join(' OR ');
  },
};
