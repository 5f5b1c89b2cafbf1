import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type ChunkedDocument,
  COARSE_SNIPPET_CHARS,
  chunkPages,
  cutSnippets,
  FINE_SNIPPET_CHARS,
  type PageRange,
  type Snippet,
} from './chunker.ts';

const isSpace = (s: string) => /^\s*$/.test(s);
const FULL_WIDTH_STOPS = '。！？．';

/** Checks every invariant the index relies on for one granularity. */
function expectValidSnippets(text: string, pages: PageRange[], snippets: Snippet[], limit: number) {
  let previousEnd = 0;
  for (const s of snippets) {
    expect(text.slice(s.start_index, s.end_index)).toBe(s.content);
    expect(s.content.length).toBeGreaterThan(0);
    expect(s.content.length).toBeLessThanOrEqual(limit);
    expect(s.content).toMatch(/^\S/);
    expect(s.content).toMatch(/\S$/);
    // In order, no overlap, and only whitespace left out between snippets.
    expect(s.start_index).toBeGreaterThanOrEqual(previousEnd);
    expect(isSpace(text.slice(previousEnd, s.start_index))).toBe(true);
    expect(s.page_span).toEqual([pageAt(pages, s.start_index), pageAt(pages, s.end_index - 1) + 1]);
    previousEnd = s.end_index;
  }
  expect(isSpace(text.slice(previousEnd))).toBe(true);
  expectCutsInsideWordsOnlyWhenNeeded(text, snippets, limit);
}

/** A cut with no whitespace on either side splits a word: allowed only for words longer than the limit. */
function expectCutsInsideWordsOnlyWhenNeeded(text: string, snippets: Snippet[], limit: number) {
  for (const s of snippets) {
    const cut = s.end_index;
    if (cut >= text.length || /\s/.test(text[cut]) || FULL_WIDTH_STOPS.includes(text[cut - 1])) continue;
    let wordStart = cut;
    while (wordStart > 0 && !/\s/.test(text[wordStart - 1])) wordStart--;
    let wordEnd = cut;
    while (wordEnd < text.length && !/\s/.test(text[wordEnd])) wordEnd++;
    expect(wordEnd - wordStart, `cut at ${cut} inside a short word`).toBeGreaterThan(limit);
  }
}

/** Reference page lookup, by brute force. */
function pageAt(pages: PageRange[], position: number): number {
  const page = pages.findIndex((p) => position >= p.start_index && position < p.end_index);
  expect(page, `position ${position} is in no page`).toBeGreaterThanOrEqual(0);
  return page;
}

function expectValidDocument(pages: string[], doc: ChunkedDocument) {
  expect(doc.text).toBe(pages.join('\n\n'));
  expect(doc.pages.map((p) => p.page_index)).toEqual(pages.map((_, i) => i));
  for (const p of doc.pages) expect(doc.text.slice(p.start_index, p.end_index)).toBe(p.content);
  expect(doc.pages.map((p) => p.content)).toEqual(pages);
  expectValidSnippets(doc.text, doc.pages, doc.coarse, COARSE_SNIPPET_CHARS);
  expectValidSnippets(doc.text, doc.pages, doc.fine, FINE_SNIPPET_CHARS);
}

/** Text made of words (some very long), spaces, newlines, sentence ends, emoji and CJK stops. */
const piece = fc.oneof(
  { weight: 10, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{1,12}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{150,700}$/) },
  { weight: 5, arbitrary: fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '\t', '\u00a0') },
  { weight: 2, arbitrary: fc.constantFrom('. ', '! ', '? ', '." ', '.) ', '…', ', ') },
  { weight: 1, arbitrary: fc.constantFrom('😀', '𝔘', '漢字', '。', '？', 'é') },
);
const pageText = fc.array(piece, { maxLength: 200 }).map((parts) => parts.join(''));

describe('chunkPages', () => {
  test('an empty page list gives empty text and no snippets', () => {
    expect(chunkPages([])).toEqual({ text: '', pages: [], coarse: [], fine: [] });
  });

  test('empty and whitespace-only pages keep their ranges and yield no snippets', () => {
    const doc = chunkPages(['', '  \n ', '']);
    expect(doc.text).toBe('\n\n  \n \n\n');
    expect(doc.pages).toEqual([
      { page_index: 0, content: '', start_index: 0, end_index: 0 },
      { page_index: 1, content: '  \n ', start_index: 2, end_index: 6 },
      { page_index: 2, content: '', start_index: 8, end_index: 8 },
    ]);
    expect(doc.coarse).toEqual([]);
    expect(doc.fine).toEqual([]);
  });

  test('a short document is one snippet of each granularity, trimmed', () => {
    const doc = chunkPages(['  Hello world.  ']);
    expect(doc.coarse).toEqual([{ content: 'Hello world.', start_index: 2, end_index: 14, page_span: [0, 1] }]);
    expect(doc.fine).toEqual(doc.coarse);
  });

  test('a snippet crossing a page boundary spans both pages, skipping empty ones', () => {
    const doc = chunkPages(['First page text', '', 'second page text', 'third']);
    expect(doc.coarse).toHaveLength(1);
    expect(doc.coarse[0].page_span).toEqual([0, 4]);
    expect(doc.coarse[0].content).toBe('First page text\n\n\n\nsecond page text\n\nthird');
  });

  test('cuts prefer sentence ends over word boundaries', () => {
    const sentence = 'This sentence has exactly fifty characters in it. '; // 50 characters
    const text = sentence.repeat(3) + 'and then a long tail without any stop at all that goes on';
    const snippets = cutSnippets(text, [{ page_index: 0, content: text, start_index: 0, end_index: text.length }], 120);
    expect(snippets[0].content).toBe(sentence.repeat(2).trimEnd());
    expect(snippets[0].content.endsWith('in it.')).toBe(true);
  });

  test('without a sentence end in reach, cuts fall on the last word boundary', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const page = [{ page_index: 0, content: text, start_index: 0, end_index: text.length }];
    expect(cutSnippets(text, page, 20).map((s) => s.content)).toEqual(['alpha beta gamma', 'delta epsilon zeta', 'eta theta']);
  });

  test('a word longer than the limit is cut inside, never inside a surrogate pair', () => {
    const text = 'a' + '😀'.repeat(10) + ' end';
    const page = [{ page_index: 0, content: text, start_index: 0, end_index: text.length }];
    const snippets = cutSnippets(text, page, 6);
    expect(snippets.map((s) => s.content)).toEqual(['a😀😀', '😀😀😀', '😀😀😀', '😀😀', 'end']);
  });

  test('sizes stay near the nominal sizes on prose', () => {
    const prose = 'Retrieval systems split documents into snippets of a useful size. '.repeat(2000);
    const doc = chunkPages([prose]);
    const average = (s: Snippet[]) => s.reduce((n, x) => n + x.content.length, 0) / s.length;
    expect(average(doc.coarse)).toBeGreaterThan(1500);
    expect(average(doc.fine)).toBeGreaterThan(120);
    for (const s of doc.fine) expect(s.content.endsWith('size.')).toBe(true);
  });

  test('invariants hold for random documents (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(pageText, { maxLength: 6 }), (pages) => expectValidDocument(pages, chunkPages(pages))),
      { numRuns: 300 },
    );
  });

  test('invariants hold for random text and small limits (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.oneof(pageText, fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: fc.constantFrom('a', ' ', '.', '\n'), maxLength: 300 })),
        fc.integer({ min: 2, max: 40 }),
        (text, limit) => {
          const pages = [{ page_index: 0, content: text, start_index: 0, end_index: text.length }];
          expectValidSnippets(text, pages, cutSnippets(text, pages, limit), limit);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
