import fc from 'fast-check';
import { expect, test } from 'vitest';
import { countTokens, WORD_PIECE_CHARS } from './tokens.ts';

test('words and punctuation count one token each; whitespace counts nothing', () => {
  expect(countTokens('')).toBe(0);
  expect(countTokens('  \n\t ')).toBe(0);
  expect(countTokens('Hello, world!')).toBe(4);
  expect(countTokens("don't stop")).toBe(4); // don ' t stop
  expect(countTokens('café naïve Straße')).toBe(3);
});

test('long words cost one token per started word piece', () => {
  expect(countTokens('a'.repeat(WORD_PIECE_CHARS))).toBe(1);
  expect(countTokens('a'.repeat(WORD_PIECE_CHARS + 1))).toBe(2);
  expect(countTokens('a'.repeat(WORD_PIECE_CHARS * 3))).toBe(3);
});

test('ideographs count one token each, emoji as symbols', () => {
  expect(countTokens('検索エンジン')).toBe(6);
  expect(countTokens('😀 😀')).toBe(2);
});

test('the count is additive over whitespace-separated parts (fast-check)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
      expect(countTokens(`${a} ${b}`)).toBe(countTokens(a) + countTokens(b));
      expect(countTokens(a)).toBeLessThanOrEqual(a.length);
    }),
  );
});
