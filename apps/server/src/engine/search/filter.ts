import { type RawBuilder, sql } from 'kysely';
import type { FilterNode } from './filter-node.ts';

const comparisonSql = { $eq: '=', $ne: '=', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/**
 * A parsed metadata filter as a SQL condition on the documents row aliased `d`. Every attribute
 * name and value is a bound parameter; only operators from a fixed table become SQL text.
 * Each condition is an EXISTS lookup on `document_metadata` (key, value) rows, which both
 * dialects index the same way; a missing attribute has no row, which gives the null semantics.
 */
export function filterSql(node: FilterNode): RawBuilder<unknown> {
  switch (node.kind) {
    case 'and':
    case 'or': {
      if (node.children.length === 0) return node.kind === 'and' ? sql`1 = 1` : sql`1 = 0`;
      return sql`(${sql.join(node.children.map(filterSql), node.kind === 'and' ? sql` and ` : sql` or `)})`;
    }
    case 'compare': {
      const exists = sql`exists (select 1 from document_metadata m where m.document_id = d.id and m.key = ${node.key} and m.value ${sql.raw(comparisonSql[node.operator])} ${node.value})`;
      return node.operator === '$ne' ? sql`not ${exists}` : exists;
    }
    case 'set': {
      if (node.values.length === 0) return node.operator === '$in' ? sql`1 = 0` : sql`1 = 1`;
      const exists = sql`exists (select 1 from document_metadata m where m.document_id = d.id and m.key = ${node.key} and m.value in (${sql.join(node.values)}))`;
      return node.operator === '$nin' ? sql`not ${exists}` : exists;
    }
  }
}

/**
 * The documents of one collection that may pass a filter, found through the `document_metadata
 * (collection_id, key, value, document_seq)` index alone rather than by reading every document of
 * the collection. `seqs` selects their `document_seq` (a document may appear more than once);
 * `exact` says they are exactly the documents passing, so nothing is left to check on each (a
 * filter passing many documents would spend most of its time checking again, document by
 * document, what the index had just answered); otherwise they are a superset and the filter is
 * applied to each.
 * Null when the filter has no part that index can find (only `$ne`, `$nin`, or an `$or` with
 * such a branch). Other collections' metadata is never read.
 */
export interface FilterCandidates {
  seqs: RawBuilder<unknown>;
  exact: boolean;
}

const NO_CANDIDATES: FilterCandidates = { seqs: sql`select cast(null as bigint) as document_seq where 1 = 0`, exact: true };

export function filterCandidates(node: FilterNode, collectionId: string): FilterCandidates | null {
  const inCollection = sql`select document_seq from document_metadata where collection_id = ${collectionId}`;
  switch (node.kind) {
    case 'compare':
      if (node.operator === '$ne') return null;
      return { seqs: sql`${inCollection} and key = ${node.key} and value ${sql.raw(comparisonSql[node.operator])} ${node.value}`, exact: true };
    case 'set':
      if (node.operator === '$nin') return null;
      if (node.values.length === 0) return NO_CANDIDATES;
      return { seqs: sql`${inCollection} and key = ${node.key} and value in (${sql.join(node.values)})`, exact: true };
    case 'and': {
      const parts = node.children.map((child) => filterCandidates(child, collectionId));
      const found = parts.filter((part): part is FilterCandidates => part !== null);
      if (found.length === 0) return null;
      // A condition the index cannot answer leaves a superset, checked document by document.
      return { seqs: sql.join(found.map(wrapped), sql` intersect `), exact: found.length === parts.length && found.every((part) => part.exact) };
    }
    case 'or': {
      if (node.children.length === 0) return NO_CANDIDATES;
      const parts = node.children.map((child) => filterCandidates(child, collectionId));
      if (parts.some((part) => part === null)) return null;
      const found = parts as FilterCandidates[];
      return { seqs: sql.join(found.map(wrapped), sql` union `), exact: found.every((part) => part.exact) };
    }
  }
}

/**
 * The documents failing a `$ne` or `$nin` filter, found through the same index: exactly those it
 * holds for the opposite (`$eq`, `$in`), as a filter passes only documents without such a row.
 * Null for any other filter.
 */
export function filterExclusions(node: FilterNode, collectionId: string): RawBuilder<unknown> | null {
  if (node.kind === 'compare' && node.operator === '$ne') return filterCandidates({ ...node, operator: '$eq' }, collectionId)!.seqs;
  if (node.kind === 'set' && node.operator === '$nin') return filterCandidates({ ...node, operator: '$in' }, collectionId)!.seqs;
  return null;
}

/** A compound select as one operand of another (neither dialect takes a parenthesised compound there). */
const wrapped = (part: FilterCandidates) => sql`select document_seq from (${part.seqs}) as part`;
