import type { ComparisonOperator, FilterNode, SetOperator } from '../engine/search/filter-node.ts';
import { Invalid } from './errors.ts';

export type { FilterNode };

/**
 * The metadata filter language of the provider API, parsed into the tree (owned by storage, in
 * engine/search/filter-node.ts) that the search adapters compile into parameterised SQL. Attributes
 * are strings, or lists of strings when named `list:...`; a missing attribute is null, so
 * $eq/$gt/$gte/$lt/$lte/$in are false on it and $ne/$nin are true. Lists only take $in/$nin, which mean "shares at least one element".
 */
const comparisons = new Set<string>(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);
const sets = new Set<string>(['$in', '$nin']);
/** Bounds that keep one query's SQL small. */
const MAX_DEPTH = 16;
const MAX_NODES = 256;

export function parseMetadataFilter(filter: unknown): FilterNode | null {
  if (filter === null || filter === undefined) return null;
  let nodes = 0;
  const fail = (where: string, reason: string): never => {
    throw new Invalid(`Invalid filter${where ? ` at ${where}` : ''}: ${reason}`);
  };
  const count = (where: string) => {
    if (++nodes > MAX_NODES) fail(where, `a filter may hold at most ${MAX_NODES} conditions`);
  };

  const parseObject = (value: unknown, where: string, depth: number): FilterNode => {
    if (depth > MAX_DEPTH) fail(where, `filters nest at most ${MAX_DEPTH} levels deep`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'expected an object');
    const children: FilterNode[] = [];
    for (const [key, condition] of Object.entries(value as Record<string, unknown>)) {
      const here = where ? `${where}.${key}` : key;
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(condition)) fail(here, `${key} takes an array of filters`);
        const parts = (condition as unknown[]).map((part, index) => parseObject(part, `${here}[${index}]`, depth + 1));
        children.push({ kind: key === '$and' ? 'and' : 'or', children: parts });
      } else if (key.startsWith('$')) {
        fail(here, `unknown operator ${key} (use $and or $or to combine filters)`);
      } else {
        children.push(...parseAttribute(key, condition, here));
      }
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  };

  const parseAttribute = (key: string, condition: unknown, where: string): FilterNode[] => {
    const isList = key.startsWith('list:');
    // A bare string is shorthand for $eq.
    if (typeof condition === 'string') condition = { $eq: condition };
    if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
      fail(where, 'expected an object of operators such as {"$eq": "value"}');
    }
    const entries = Object.entries(condition as Record<string, unknown>);
    if (entries.length === 0) fail(where, 'expected at least one operator');
    return entries.map(([operator, operand]) => {
      count(where);
      if (comparisons.has(operator)) {
        if (isList) fail(`${where}.${operator}`, 'list attributes can only be used with $in and $nin');
        if (typeof operand !== 'string') fail(`${where}.${operator}`, 'expected a string');
        return { kind: 'compare', key, operator: operator as ComparisonOperator, value: operand as string };
      }
      if (sets.has(operator)) {
        if (!Array.isArray(operand) || operand.some((item) => typeof item !== 'string')) {
          fail(`${where}.${operator}`, 'expected an array of strings');
        }
        return { kind: 'set', key, operator: operator as SetOperator, values: [...new Set(operand as string[])] };
      }
      return fail(`${where}.${operator}`, `unknown operator ${operator}`);
    });
  };

  return parseObject(filter, '', 0);
}

/** The same semantics evaluated in memory: the reference the SQL compilers are tested against. */
export function matchesMetadata(node: FilterNode, metadata: Record<string, string | string[]>): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => matchesMetadata(child, metadata));
    case 'or':
      return node.children.some((child) => matchesMetadata(child, metadata));
    case 'set': {
      const raw = metadata[node.key];
      const present = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      const shared = present.some((value) => node.values.includes(value));
      return node.operator === '$in' ? shared : !shared;
    }
    case 'compare': {
      const raw = metadata[node.key];
      if (typeof raw !== 'string') return node.operator === '$ne';
      const order = raw < node.value ? -1 : raw > node.value ? 1 : 0;
      return { $eq: order === 0, $ne: order !== 0, $gt: order > 0, $gte: order >= 0, $lt: order < 0, $lte: order <= 0 }[node.operator];
    }
  }
}
