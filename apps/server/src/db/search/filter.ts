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
 * The `seq` (column `document_seq`) of the documents of one collection that may pass a filter,
 * found through the `document_metadata (collection_id, key, value, document_seq)` index alone
 * rather than by reading every document of the collection: a superset (every document passing is
 * in it; unless candidatesAreExact, the filter itself is still applied to each), or null when
 * the filter has no part that index can find (only `$ne`, `$nin`, or an `$or` with such a branch).
 * Other collections' metadata is never read. A document may appear more than once.
 */
export function filterCandidates(node: FilterNode, collectionId: string): RawBuilder<unknown> | null {
  const inCollection = sql`select document_seq from document_metadata where collection_id = ${collectionId}`;
  switch (node.kind) {
    case 'compare':
      if (node.operator === '$ne') return null;
      return sql`${inCollection} and key = ${node.key} and value ${sql.raw(comparisonSql[node.operator])} ${node.value}`;
    case 'set':
      if (node.operator === '$nin') return null;
      if (node.values.length === 0) return sql`select cast(null as bigint) as document_seq where 1 = 0`;
      return sql`${inCollection} and key = ${node.key} and value in (${sql.join(node.values)})`;
    case 'and': {
      const parts = node.children.map((child) => filterCandidates(child, collectionId)).filter((part): part is RawBuilder<unknown> => part !== null);
      return parts.length === 0 ? null : sql.join(parts.map(wrapped), sql` intersect `);
    }
    case 'or': {
      if (node.children.length === 0) return sql`select cast(null as bigint) as document_seq where 1 = 0`;
      const parts = node.children.map((child) => filterCandidates(child, collectionId));
      return parts.some((part) => part === null) ? null : sql.join((parts as RawBuilder<unknown>[]).map(wrapped), sql` union `);
    }
  }
}

/**
 * Whether a filter's candidates (filterCandidates) are exactly the documents that pass it, so that
 * nothing is left to check on each: true when every condition is one the index answers ($ne and
 * $nin are not). A filter passing half of 20 MB spent most of its time checking again, document by
 * document, what the index had just answered.
 */
export function candidatesAreExact(node: FilterNode): boolean {
  switch (node.kind) {
    case 'compare':
      return node.operator !== '$ne';
    case 'set':
      return node.operator !== '$nin';
    case 'and':
    case 'or':
      return node.children.every(candidatesAreExact);
  }
}

/** A compound select as one operand of another (neither dialect takes a parenthesised compound there). */
const wrapped = (part: RawBuilder<unknown>) => sql`select document_seq from (${part}) as part`;
