/**
 * Text normalisation of the built-in embedding model. Lower case, accents folded (café = cafe),
 * words split on anything that is not a letter or digit, and each Han/Kana character a word of
 * its own (those scripts do not separate words by spaces). A light English suffix stripper makes
 * "documents", "documented" and "documenting" meet at "document".
 */

// Built with `new RegExp` because the `v` flag (set subtraction) is newer than our tsc target.
const WORD = new RegExp(
  String.raw`[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|[[\p{L}\p{N}]--[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]]+`,
  'gv',
);
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{M}+/gu;

/** Lower-cased, accent-folded text; the ASCII fast path skips Unicode normalisation. */
export function normalizeText(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(COMBINING_MARKS, '') : lower;
}

/** The words of already normalised text, in order. */
export function words(normalized: string): string[] {
  return normalized.match(WORD) ?? [];
}

/** A deliberately small suffix stripper (plural, -ing, -ed); it never shortens a word below 3 letters. */
export function stem(word: string): string {
  const n = word.length;
  if (n <= 3) return word;
  if (word.endsWith('ies') && n > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && n > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && n > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && n > 4 && /(?:x|ch|sh|ss|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

// "running" -> "runn" -> "run"; "stopped" -> "stopp" -> "stop".
function undouble(base: string): string {
  const n = base.length;
  return n > 3 && base[n - 1] === base[n - 2] && !/[lsz]/.test(base[n - 1]!) ? base.slice(0, -1) : base;
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
