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
