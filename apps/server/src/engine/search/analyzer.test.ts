import fc from 'fast-check';
import { expect, test } from 'vitest';
import { chunkPages, cutSnippets } from '../ingest/chunker.ts';
import { analyze, queryTermCounts, queryTerms, termCounts, termCountsInSlices, textTerms } from './analyzer.ts';
import { bm25Score } from './rank.ts';
import { rankHits } from './rank.ts';

test('text becomes lower-case Porter stems of its words, stop words dropped, repeats kept', () => {
  expect(analyze('The Running dogs ran; running is FUN!')).toEqual(['run', 'dog', 'ran', 'run', 'fun']);
  expect(analyze('Relational databases, 1990s')).toEqual(['relat', 'databas', '1990']);
  expect(analyze('')).toEqual([]);
  expect(analyze('?! -- ...')).toEqual([]);
});

test('words are Unicode letters and digits; diacritics and width do not make new terms', () => {
  expect(analyze('Café CAFE cafe\u0301')).toEqual(['cafe', 'cafe', 'cafe']);
  expect(analyze('naïve Ｆｕｌｌ')).toEqual(['naiv', 'full']);
  expect(analyze('Straße 東京 Москва')).toEqual(['straße', '東京', 'москва']);
  expect(analyze("don't won't")).toEqual([]); // "don", "t", "won" are stop words
});

test('plain ASCII text gives the terms the Unicode path gives (only speed differs)', () => {
  const text = 'Indexing 42 Reports: the RUNNING totals, e-mail & C++ (2024) relational-databases';
  // One non-ASCII word at the end sends the same text down the Unicode path.
  expect([...analyze(text), 'cafe']).toEqual(analyze(`${text} café`));
  expect(analyze(text)).toEqual(['index', '42', 'report', 'run', 'total', 'e', 'mail', 'c', '2024', 'relat', 'databas']);
});

test('query terms are the distinct analyzed terms with their counts (at most 4), at most 64; only stop words leave none', () => {
  const terms = (query: string) => queryTermCounts(query).map(({ term, count }) => (count > 1 ? `${term}*${count}` : term));
  expect(terms('What is the Capital of France? (2024) capitals')).toEqual(['capit*2', 'franc', '2024']);
  expect(terms('the and of')).toEqual([]);
  expect(terms('"; DROP TABLE x --')).toEqual(['drop', 'tabl', 'x']);
  expect(terms('?!')).toEqual([]);
  expect(terms('index '.repeat(10))).toEqual(['index*4']);
  expect(queryTerms(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(64);
  expect(queryTerms('index the index of indexing')).toEqual(['index']);
});

test('ASCII text takes a faster path to the same terms as the Unicode one', () => {
  const text = 'Tab\tand-dash: C3PO ran 42 miles; the_end. ÉTÉ';
  expect(analyze(text)).toEqual([...analyze(text.slice(0, -4)), 'et']); // "ete" stems to "et"
  expect(analyze('Running-dogs 1990s')).toEqual(analyze('Running-dogs 1990s \u00a0'));
  expect(analyze('Running-dogs 1990s')).toEqual(['run', 'dog', '1990']);
});

test('index terms are what FTS5 and PostgreSQL store: letters and digits only, no spaces', () => {
  const terms = analyze('Mixed: e-mail, C++, 3.14, naïve—façade; “quotes” and ÅNGSTRÖM');
  for (const term of terms) expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
});

test('scores map BM25 weights onto 0..1, keeping their order', () => {
  const weights = [0, 0.5, 1, 5, 20, 100, 1e6];
  const scores = weights.map(bm25Score);
  expect(scores[0]).toBe(0);
  for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeGreaterThan(scores[i - 1]!);
  expect(scores.every((score) => score >= 0 && score < 1)).toBe(true);
});

test('ranking keeps the k best by weight, equal weights (to 12 digits) in path then index order', () => {
  const hits = [
    { path: 'b', index: 0, weight: 2 },
    { path: 'a', index: 5, weight: 2 + 1e-13 },
    { path: 'a', index: 1, weight: 2 },
    { path: 'c', index: 0, weight: 3 },
    { path: 'd', index: 0, weight: 1 },
  ];
  const ranked = rankHits(hits, 4, (hit) => [hit.path, hit.index]);
  expect(ranked.map((hit) => `${hit.path}${hit.index}`)).toEqual(['c0', 'a1', 'a5', 'b0']);
  expect(ranked[1]!.score).toBe(ranked[3]!.score);
  expect(ranked[0]).not.toHaveProperty('weight');
});

test('the terms of a page or snippet taken from its document\'s analysed text are analyze(content), whatever the text', () => {
  const word = fc.oneof(
    fc.constantFrom('the', 'Running', 'dogs', 'ran.', 'FUN!', 'café', 'naïve', '42', 'x'.repeat(250), 'e-mail', 'Straße'),
    fc.string({ maxLength: 12 }),
    fc.stringMatching(/^[a-zA-Z0-9]{1,300}$/),
  );
  const page = fc.array(word, { maxLength: 120 }).chain((words) => fc.array(fc.constantFrom(' ', '\n', '\n\n', '  ', '\t'), { minLength: words.length, maxLength: words.length }).map((gaps) => words.map((w, i) => w + gaps[i]).join('')));
  fc.assert(
    fc.property(fc.array(page, { minLength: 1, maxLength: 4 }), (pages) => {
      const chunked = chunkPages(pages);
      const terms = textTerms(chunked.text);
      expect(terms.all()).toEqual(analyze(chunked.text));
      for (const slice of [...chunked.pages, ...chunked.coarse, ...chunked.fine, ...cutSnippets(chunked.text, chunked.pages, 7)]) {
        expect(terms.slice(slice.start_index, slice.content)).toEqual(analyze(slice.content));
      }
      // Content that is not the text's slice there (rows of an older version) is analysed as it is.
      expect(terms.slice(0, 'something else entirely')).toEqual(analyze('something else entirely'));
    }),
    { numRuns: 300 },
  );
});

test('a large text counted slice by slice gives the counts of analyzing it whole', async () => {
  const words = ['Tidal', 'flats', 'and', 'the', 'herons', 'naïve', 'cafés', '2026', 'running', 'ran'];
  const text = Array.from({ length: 60_000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
  const terms = analyze(text);
  expect(await termCountsInSlices(text)).toEqual(termCounts(terms));
  expect(await termCountsInSlices('')).toEqual({ count: 0, frequencies: new Map() });
});
