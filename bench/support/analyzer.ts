import { analyze, queryTerms } from '../../apps/server/src/engine/search/analyzer.ts';
import { ftsMatch } from '../../apps/server/src/engine/search/sqlite-file.ts';

/**
 * How Sift's full-text index sees text, for the floors: the same analyzer (engine/search/analyzer.ts:
 * stop words, Porter stemming, in JavaScript), FTS5 tables of the same declaration over its terms
 * (`ascii` tokenizer), and the same match expression for a query. Kept here, in one place, so
 * the floors follow the engine when its analyzer changes. The floor's indexing time includes
 * the analyzer: it is the tokenizer now.
 */
export const floorAnalyzer = {
  name: "Sift's analyzer (engine/search/analyzer.ts) into FTS5 tokenize='ascii', query terms OR-ed (ftsMatch)",
  /** The FTS5 declaration of a table (as sqlite-file.ts creates them). */
  declaration: (table: string) => `create virtual table ${table} using fts5(content, tokenize='ascii')`,
  /** What goes into the FTS5 column for a text. */
  text: (text: string): string => analyze(text).join(' '),
  /** The FTS5 MATCH expression of a query, or null when it has no term. */
  match(query: string): string | null {
    const terms = queryTerms(query);
    return terms.length === 0 ? null : ftsMatch(terms);
  },
};
