/** A parsed metadata filter: the shape the search adapters compile into SQL (the domain parses into it). */
export type ComparisonOperator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';
export type SetOperator = '$in' | '$nin';
export type FilterNode =
  | { kind: 'and' | 'or'; children: FilterNode[] }
  | { kind: 'compare'; key: string; operator: ComparisonOperator; value: string }
  | { kind: 'set'; key: string; operator: SetOperator; values: string[] };
