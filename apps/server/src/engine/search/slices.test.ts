import { expect, test } from 'vitest';
import { PIECE_BYTES, PIECE_UNITS, textPieces } from './slices.ts';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

test('a text is cut into pieces that join back into it, never between the two halves of a surrogate pair', () => {
  const straddling = `${'a'.repeat(PIECE_UNITS - 1)}\u{1F30A}${'b'.repeat(PIECE_UNITS * 2)}`;
  const accented = 'é'.repeat(PIECE_UNITS + 3);
  const astralOnly = '\u{1F30A}'.repeat(PIECE_UNITS);
  for (const text of ['', 'short', 'c'.repeat(PIECE_UNITS), 'd'.repeat(PIECE_UNITS + 1), straddling, accented, astralOnly, `ж${straddling}`]) {
    const pieces = textPieces(text);
    expect(pieces.map((piece) => piece.text).join('')).toBe(text);
    for (const [i, piece] of pieces.entries()) {
      expect(piece.start_index).toBe(i === 0 ? 0 : pieces[i - 1]!.start_index + pieces[i - 1]!.text.length);
      expect(piece.text.length).toBeLessThanOrEqual(PIECE_UNITS + 1);
      expect(bytes(piece.text)).toBeLessThanOrEqual(PIECE_BYTES);
      expect(piece.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  }
  expect(textPieces('')).toEqual([{ start_index: 0, text: '' }]);
  // By units alone the pair is kept whole in the first piece; its bytes would pass PIECE_BYTES.
  expect(textPieces(straddling, PIECE_UNITS, null)[0]!.text.length).toBe(PIECE_UNITS + 1);
  expect(textPieces(straddling)[0]!.text.length).toBe(PIECE_UNITS - 1);
});

test('a piece of text whose characters take more than a byte is cut at its bytes, filling them', () => {
  expect(textPieces('é'.repeat(PIECE_UNITS)).map((piece) => bytes(piece.text))).toEqual([PIECE_BYTES, PIECE_BYTES]);
  expect(textPieces('字'.repeat(PIECE_UNITS))[0]!.text).toHaveLength(Math.floor(PIECE_BYTES / 3));
  // By units alone (as migration 031 cut), a piece is PIECE_UNITS long whatever its bytes.
  expect(textPieces('é'.repeat(PIECE_UNITS + 1), PIECE_UNITS, null).map((piece) => piece.text.length)).toEqual([PIECE_UNITS, 1]);
});
