import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { lexicalRelevance } from './lexical-relevance.ts';

const score = (query: string, document: string) => lexicalRelevance(query, [document])[0]!;
/** Scores of documents reranked together, as one request holds them. */
const together = (query: string, ...documents: string[]) => lexicalRelevance(query, documents);

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

  test('the same documents in another order get the same scores', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, { minLength: 1, maxLength: 8 }), fc.nat(), (query, documents, shift) => {
        const by = shift % documents.length;
        const rotated = [...documents.slice(by), ...documents.slice(0, by)];
        const scores = lexicalRelevance(query, documents);
        expect(lexicalRelevance(query, rotated)).toEqual([...scores.slice(by), ...scores.slice(0, by)]);
      }),
      { numRuns: 300 },
    );
  });

  test('a query word few of the documents hold outweighs one most of them hold', () => {
    const query = 'bibliometrics of citation indexes';
    const common = ['Citation practice in journals.', 'Citation counts of authors.', 'Citation and reference styles.'];
    const [citations, bibliometrics] = lexicalRelevance(query, ['Citation citation analysis.', 'Bibliometrics, a survey.', ...common]);
    expect(bibliometrics).toBeGreaterThan(citations!);
    // Among documents that all speak of bibliometrics, citation is the word that tells them apart.
    const [citing, plain] = lexicalRelevance(query, ['Bibliometrics and citation.', 'Bibliometrics in libraries.', 'Bibliometrics today.']);
    expect(citing).toBeGreaterThan(plain!);
  });

  test('a document without any query word scores 0, and an empty query scores everything 0', () => {
    expect(score('quantum chromodynamics', 'The cat sat on the mat.')).toBe(0);
    expect(lexicalRelevance('', ['anything', ''])).toEqual([0, 0]);
    expect(score('anything', '')).toBe(0);
  });

  test('the answering passage ranks above a passage sharing one word, which ranks above an unrelated one', () => {
    const [answer, partial, unrelated] = together(
      'What is the capital of France?',
      'Paris is the capital of France and its largest city.',
      'France borders Spain, Italy, Germany and Belgium.',
      'Photosynthesis converts light into chemical energy.',
    );
    expect(answer).toBeGreaterThan(partial!);
    expect(partial).toBeGreaterThan(unrelated!);
    expect(unrelated).toBe(0);
  });

  test('a word the query repeats counts for more than a word it says once', () => {
    const [aboutTitles, aboutArticles] = together(
      'How are titles chosen? Do titles describe the articles they head?',
      'Choosing titles: a study of descriptive titles in journals.',
      'Choosing articles: a study of descriptive articles in journals.',
    );
    expect(aboutTitles).toBeGreaterThan(aboutArticles!);
  });

  test('more occurrences of a query word score higher, with diminishing returns', () => {
    const passage = (n: number) => `${'indexing '.repeat(n)}${'filler '.repeat(20 - n)}`;
    const [one, two, five, six] = together('indexing', ...[1, 2, 5, 6].map(passage), 'filler only');
    expect(two).toBeGreaterThan(one!);
    expect(six).toBeGreaterThan(five!);
    expect(two! - one!).toBeGreaterThan(six! - five!);
    expect(six).toBeLessThan(1);
  });

  test('a document with more of the query words ranks above one with fewer, at equal length', () => {
    const [three, one] = together(
      'automatic indexing of chemical patents',
      'Automatic indexing applied to patents in the field of law.',
      'Automatic cataloguing applied to books in the field of law.',
    );
    expect(three).toBeGreaterThan(one!);
  });

  test('a query of function words only scores every document 0', () => {
    expect(lexicalRelevance('to be or not to be', ['To be, or not to be, that is the question.'])).toEqual([0]);
  });

  test('a short focused passage beats a long one mentioning the word once', () => {
    const [focused, diluted] = together(
      'reranker',
      'A reranker reorders results. The reranker scores each one.',
      `A reranker is mentioned once. ${'Unrelated filler text about gardening. '.repeat(60)}`,
    );
    expect(focused).toBeGreaterThan(diluted!);
  });

  test('plural, inflected and accented forms meet; function words do not count', () => {
    expect(score('indexing documents', 'We index one document.')).toBeGreaterThan(0);
    expect(score('cafe', 'Un café, s’il vous plaît.')).toBeGreaterThan(0);
    expect(score('the history of rome', 'The best of the best.')).toBe(0);
  });
});
