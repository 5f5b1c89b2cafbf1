import { expect, test } from 'vitest';
import { PIECE_UNITS, textPieces } from './slices.ts';

test('a text is cut into pieces that join back into it, never between the two halves of a surrogate pair', () => {
  const straddling = `${'a'.repeat(PIECE_UNITS - 1)}\u{1F30A}${'b'.repeat(PIECE_UNITS * 2)}`;
  for (const text of ['', 'short', 'c'.repeat(PIECE_UNITS), 'd'.repeat(PIECE_UNITS + 1), straddling]) {
    const pieces = textPieces(text);
    expect(pieces.map((piece) => piece.text).join('')).toBe(text);
    for (const [i, piece] of pieces.entries()) {
      expect(piece.start_index).toBe(i === 0 ? 0 : pieces[i - 1]!.start_index + pieces[i - 1]!.text.length);
      expect(piece.text.length).toBeLessThanOrEqual(PIECE_UNITS + 1);
      expect(piece.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  }
  expect(textPieces('')).toEqual([{ start_index: 0, text: '' }]);
  expect(textPieces(straddling)[0]!.text.length).toBe(PIECE_UNITS + 1);
});
