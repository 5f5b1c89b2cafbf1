import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../schema.ts';
import { filterSql } from './filter.ts';
import { queryTerms } from './query-terms.ts';
import type { DocumentHit, PageHit, SearchIndex, SearchRequest, SnippetHit } from './types.ts';

/**
 * PostgreSQL: tsvector columns (english configuration) with GIN indexes, ranked by ts_rank_cd
 * with normalisation 32, which already maps the rank onto 0..1 monotonically. The query is the
 * OR of its terms, built by PostgreSQL from a bound parameter.
 */
export function postgresSearchIndex({ db }: Database): SearchIndex {
  const tsQuery = (request: SearchRequest): RawBuilder<unknown> | null => {
    const terms = queryTerms(request.query);
    if (terms.length === 0) return null;
    return sql`replace(plainto_tsquery('english', ${terms.join(' ')})::text, '&', '|')::tsquery`;
  };
  const where = (request: SearchRequest, vector: RawBuilder<unknown>, query: RawBuilder<unknown>) =>
    request.filter ? sql`${vector} @@ ${query} and ${filterSql(request.filter)}` : sql`${vector} @@ ${query}`;

  return {
    async topDocuments(request) {
      const query = tsQuery(request);
      if (!query) return [];
      const { rows } = await sql<DocumentHit>`
        select d.id as "documentId", d.path as path, d.metadata as metadata, ts_rank_cd(d.text_tsv, q.query, 32) as score
        from documents d, (select ${query} as query) q
        where d.collection_id = ${request.collectionId} and ${where(request, sql`d.text_tsv`, sql`q.query`)}
        order by score desc, d.path limit ${request.k}`.execute(db);
      return rows;
    },
    async topPages(request) {
      const query = tsQuery(request);
      if (!query) return [];
      const { rows } = await sql<PageHit>`
        select d.id as "documentId", d.path as path, d.metadata as metadata, p.page_index as "pageIndex", ${sql.raw(request.includeContent ? 'p.content' : 'null')} as content,
               ts_rank_cd(p.tsv, q.query, 32) as score
        from pages p join documents d on d.id = p.document_id, (select ${query} as query) q
        where p.collection_id = ${request.collectionId} and ${where(request, sql`p.tsv`, sql`q.query`)}
        order by score desc, p.seq limit ${request.k}`.execute(db);
      return rows;
    },
    async topSnippets(request) {
      const query = tsQuery(request);
      if (!query) return [];
      const { rows } = await sql<SnippetHit>`
        select d.id as "documentId", d.path as path, d.metadata as metadata, c.start_index as "startIndex", c.end_index as "endIndex",
               c.page_start as "pageStart", c.page_end as "pageEnd", c.content as content, ts_rank_cd(c.tsv, q.query, 32) as score
        from chunks c join documents d on d.id = c.document_id, (select ${query} as query) q
        where c.collection_id = ${request.collectionId} and c.granularity = ${request.granularity}
          and ${where(request, sql`c.tsv`, sql`q.query`)}
        order by score desc, c.seq limit ${request.k}`.execute(db);
      return rows;
    },
    // The document-level tsvector is a generated column over documents.text: nothing to write.
    async indexDocuments() {},
    async applyDeletions() {},
  };
}
