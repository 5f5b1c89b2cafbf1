import { describe, expect, test } from 'vitest';
import { type FeedbackDocument, queryWeights, RM3_EXPANSION_TERMS, RM3_ORIGINAL_QUERY_WEIGHT, relevanceModel, rm3Query as rm3 } from './relevance-feedback.ts';

const rm3Query = (query: string[], feedback: FeedbackDocument[], tooCommon?: (term: string) => boolean) => rm3(query, relevanceModel(feedback), tooCommon);

const weights = (query: ReturnType<typeof rm3Query>) => new Map(query.map(({ term, weight }) => [term, weight]));

describe('RM3 query expansion', () => {
  test('words the best documents share join the query, weighted below the query words', () => {
    const expanded = weights(
      rm3Query(['titl'], [
        { terms: ['titl', 'journal', 'descript', 'journal'], score: 3 },
        { terms: ['titl', 'journal', 'keyword'], score: 2 },
      ]),
    );
    expect(expanded.get('journal')).toBeGreaterThan(0);
    expect(expanded.get('titl')).toBeGreaterThan(expanded.get('journal')!);
    expect(expanded.get('journal')).toBeGreaterThan(expanded.get('keyword')!);
  });

  test('the original query keeps its fixed share and its own term frequencies', () => {
    const expanded = weights(rm3Query(['index', 'index', 'autom'], [{ terms: ['other'], score: 1 }]));
    expect(expanded.get('index')).toBeCloseTo((RM3_ORIGINAL_QUERY_WEIGHT * 2) / 3);
    expect(expanded.get('autom')).toBeCloseTo(RM3_ORIGINAL_QUERY_WEIGHT / 3);
    expect(expanded.get('other')).toBeCloseTo(1 - RM3_ORIGINAL_QUERY_WEIGHT);
    expect([...expanded.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  });

  test('a better first-pass document weighs more in the expansion', () => {
    const expanded = weights(rm3Query(['q'], [{ terms: ['strong'], score: 9 }, { terms: ['weak'], score: 1 }]));
    expect(expanded.get('strong')).toBeGreaterThan(expanded.get('weak')! * 5);
  });

  test('at most the fixed number of expansion terms are added, and terms too common in the collection are not', () => {
    const many = Array.from({ length: 100 }, (_, i) => `w${String(i).padStart(3, '0')}`);
    const expanded = rm3Query(['q'], [{ terms: [...many, 'common', 'common'], score: 1 }], (term) => term === 'common');
    expect(expanded.filter(({ term }) => term !== 'q')).toHaveLength(RM3_EXPANSION_TERMS);
    expect(expanded.some(({ term }) => term === 'common')).toBe(false);
  });

  test('the same input always gives the same query, ties broken by term', () => {
    const feedback = [{ terms: ['b', 'a', 'c'], score: 1 }];
    expect(rm3Query(['q'], feedback)).toEqual(rm3Query(['q'], [{ terms: ['c', 'a', 'b'], score: 1 }]));
    expect(rm3Query(['q'], feedback).map(({ term }) => term)).toEqual(['q', 'a', 'b', 'c']);
  });

  test('the first pass weighs each query term by its number of occurrences', () => {
    expect(queryWeights(['b', 'a', 'b'])).toEqual([{ term: 'b', weight: 2 }, { term: 'a', weight: 1 }]);
  });

  test('no feedback leaves the query alone', () => {
    expect(rm3Query(['a', 'b'], []).map(({ term }) => term)).toEqual(['a', 'b']);
    expect(rm3Query([], [])).toEqual([]);
  });
});
