import { expect, test } from 'vitest';
import { matchesMetadata, parseMetadataFilter } from './metadata-filter.ts';

test('a filter parses into a tree; several attributes or operators mean AND', () => {
  expect(parseMetadataFilter({ a: { $gte: '1', $lt: '5' }, b: 'x' })).toEqual({
    kind: 'and',
    children: [
      { kind: 'compare', key: 'a', operator: '$gte', value: '1' },
      { kind: 'compare', key: 'a', operator: '$lt', value: '5' },
      { kind: 'compare', key: 'b', operator: '$eq', value: 'x' },
    ],
  });
  expect(parseMetadataFilter(null)).toBeNull();
});

test('malformed filters are refused with the place and the reason', () => {
  expect(() => parseMetadataFilter({ a: { $regex: 'x' } })).toThrow(/a\.\$regex: unknown operator/);
  expect(() => parseMetadataFilter({ a: { $eq: 3 } })).toThrow(/expected a string/);
  expect(() => parseMetadataFilter({ a: { $in: 'x' } })).toThrow(/array of strings/);
  expect(() => parseMetadataFilter({ 'list:t': { $eq: 'x' } })).toThrow(/only be used with \$in and \$nin/);
  expect(() => parseMetadataFilter({ $and: {} })).toThrow(/\$and takes an array/);
  expect(() => parseMetadataFilter({ $not: [] })).toThrow(/unknown operator \$not/);
  expect(() => parseMetadataFilter({ a: [] })).toThrow(/expected an object of operators/);
  let deep: Record<string, unknown> = { a: 'x' };
  for (let i = 0; i < 20; i++) deep = { $and: [deep] };
  expect(() => parseMetadataFilter(deep)).toThrow(/nest at most/);
});

test('a missing attribute is null: only $ne and $nin hold on it', () => {
  const evaluate = (filter: unknown) => matchesMetadata(parseMetadataFilter(filter)!, {});
  expect(['$eq', '$gt', '$gte', '$lt', '$lte'].map((op) => evaluate({ a: { [op]: 'x' } }))).toEqual([false, false, false, false, false]);
  expect(evaluate({ a: { $ne: 'x' } })).toBe(true);
  expect(evaluate({ a: { $in: ['x'] } })).toBe(false);
  expect(evaluate({ a: { $nin: ['x'] } })).toBe(true);
});

test('list attributes match $in and $nin by sharing at least one element', () => {
  const tags = { 'list:tags': ['a', 'b'] };
  expect(matchesMetadata(parseMetadataFilter({ 'list:tags': { $in: ['b', 'z'] } })!, tags)).toBe(true);
  expect(matchesMetadata(parseMetadataFilter({ 'list:tags': { $nin: ['b', 'z'] } })!, tags)).toBe(false);
  expect(matchesMetadata(parseMetadataFilter({ 'list:tags': { $nin: ['z'] } })!, tags)).toBe(true);
});
