import { sql } from 'kysely';
import type { FilterNode } from './filter-node.ts';
import type { Database } from '../../db/schema.ts';
import { filterSql } from './filter.ts';
import { postgresSearchIndex } from './postgres.ts';
import { sqliteSearchIndex } from './sqlite.ts';
import type { SearchIndex } from './types.ts';

export type { DocumentHit, Granularity, PageHit, SearchIndex, SearchRequest, SnippetHit, WeightedTerm } from './types.ts';

const indexes = new WeakMap<Database, SearchIndex>();

/** The full-text index of this database's dialect (one per handle). */
export function searchIndex(database: Database): SearchIndex {
  let index = indexes.get(database);
  if (!index) {
    index = database.dialect === 'postgres' ? postgresSearchIndex(database) : sqliteSearchIndex(database);
    indexes.set(database, index);
  }
  return index;
}

/** Indexed documents of a collection that pass a filter, by path: top-documents without a query. */
export async function filteredDocuments(database: Database, collectionId: string, filter: FilterNode | null, k: number) {
  const condition = filter ? filterSql(filter) : sql`1 = 1`;
  const { rows } = await sql<{ documentId: string; path: string; metadata: string }>`
    select d.id as "documentId", d.path as path, d.metadata as metadata from documents d
    where d.collection_id = ${collectionId} and d.index_status = 'indexed' and ${condition}
    order by d.path limit ${k}`.execute(database.db);
  return rows.map((row) => ({ ...row, score: 0 }));
}
