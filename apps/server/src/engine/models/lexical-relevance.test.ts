import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { lexicalRelevance } from './lexical-relevance.ts';

const score = (query: string, document: string) => lexicalRelevance(query, [document])[0]!;

// Text with real overlap between queries and documents, so the properties are exercised on
// matching words, not only on random strings that never share one.
const vocabulary = ['search', 'index', 'indexing', 'documents', 'the', 'of', 'paris', 'café', 'Café', '2024', '検索', 'rerank', 'model', 'a', 'x'];
const sentence = fc.array(fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 8 })), { maxLength: 30 }).map((w) => w.join(' '));
const anyText = fc.oneof(sentence, fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 60 }));

describe('lexical relevance model', () => {
  test('every score lies between 0 and 1', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, { maxLength: 8 }), (query, documents) => {
        for (const s of lexicalRelevance(query, documents)) {
          expect(Number.isFinite(s)).toBe(true);
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('the same query and document always give the same score', () => {
    fc.assert(
      fc.property(anyText, anyText, (query, document) => {
        expect(score(query, document)).toBe(score(query, document));
      }),
    );
  });

  test("a document's score does not depend on the other documents of the request", () => {
    fc.assert(
      fc.property(anyText, anyText, fc.array(anyText, { maxLength: 6 }), fc.nat(), (query, document, others, at) => {
        const position = at % (others.length + 1);
        const documents = [...others.slice(0, position), document, ...others.slice(position)];
        expect(lexicalRelevance(query, documents)[position]).toBe(score(query, document));
      }),
      { numRuns: 300 },
    );
  });

  test('a document without any query word scores 0, and an empty query scores everything 0', () => {
    expect(score('quantum chromodynamics', 'The cat sat on the mat.')).toBe(0);
    expect(lexicalRelevance('', ['anything', ''])).toEqual([0, 0]);
    expect(score('anything', '')).toBe(0);
  });

  test('the answering passage ranks above a passage sharing one word, which ranks above an unrelated one', () => {
    const query = 'What is the capital of France?';
    const answer = score(query, 'Paris is the capital of France and its largest city.');
    const partial = score(query, 'France borders Spain, Italy, Germany and Belgium.');
    const unrelated = score(query, 'Photosynthesis converts light into chemical energy.');
    expect(answer).toBeGreaterThan(partial);
    expect(partial).toBeGreaterThan(unrelated);
    expect(answer).toBeGreaterThan(0.6);
    expect(unrelated).toBeLessThan(0.1);
  });

  test('a word the query repeats counts for more than a word it says once', () => {
    const query = 'How are titles chosen? Do titles describe the articles they head?';
    const aboutTitles = score(query, 'Choosing titles: a study of descriptive titles in journals.');
    const aboutArticles = score(query, 'Choosing articles: a study of descriptive articles in journals.');
    expect(aboutTitles).toBeGreaterThan(aboutArticles);
  });

  test('more occurrences of a query word score higher, with diminishing returns', () => {
    const passage = (n: number) => `${'indexing '.repeat(n)}${'filler '.repeat(20 - n)}`;
    const [one, two, five, six] = [1, 2, 5, 6].map((n) => score('indexing', passage(n)));
    expect(two).toBeGreaterThan(one!);
    expect(six).toBeGreaterThan(five!);
    expect(two! - one!).toBeGreaterThan(six! - five!);
    expect(six).toBeLessThan(1);
  });

  test('a document with more of the query words ranks above one with fewer, at equal length', () => {
    const query = 'automatic indexing of chemical patents';
    const three = score(query, 'Automatic indexing applied to patents in the field of law.');
    const one = score(query, 'Automatic cataloguing applied to books in the field of law.');
    expect(three).toBeGreaterThan(one);
  });

  test('a query of function words only scores every document 0', () => {
    expect(lexicalRelevance('to be or not to be', ['To be, or not to be, that is the question.'])).toEqual([0]);
  });

  test('a short focused passage beats a long one mentioning the word once', () => {
    const focused = score('reranker', 'A reranker reorders results. The reranker scores each one.');
    const diluted = score('reranker', `A reranker is mentioned once. ${'Unrelated filler text about gardening. '.repeat(60)}`);
    expect(focused).toBeGreaterThan(diluted);
  });

  test('plural, inflected and accented forms meet, and content words outweigh function words', () => {
    expect(score('indexing documents', 'We index one document.')).toBeGreaterThan(0.5);
    expect(score('cafe', 'Un café, s’il vous plaît.')).toBeGreaterThan(0.5);
    const content = score('the history of rome', 'Rome grew from a village into an empire.');
    const functionWords = score('the history of rome', 'The best of the best.');
    expect(content).toBeGreaterThan(functionWords);
  });

  test('Han characters match one by one', () => {
    expect(score('検索エンジン', 'この検索は速い')).toBeGreaterThan(score('検索エンジン', 'この本は速い'));
  });
});
