/**
 * An approximate token count, for usage accounting and the built-in rerank model. It is NOT the
 * count of any real model's tokenizer: it counts words and punctuation the way subword tokenizers
 * roughly do on prose —
 *   - a run of letters, digits or marks is one token per started WORD_PIECE_CHARS characters
 *     (long identifiers, URLs and base64 cost more, as they do in real tokenizers);
 *   - each punctuation or symbol character is one token;
 *   - each Han, Hiragana or Katakana character is one token (those scripts have no spaces);
 *   - whitespace costs nothing.
 * Linear, one pass, no allocation per character (it runs over whole documents).
 */
export function countTokens(text: string): number {
  let tokens = 0;
  let wordRun = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    let kind: CharKind;
    if (c < 128) {
      kind = ASCII_KINDS[c] as CharKind;
    } else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      kind = kindOfNonAscii(c);
    }
    if (kind === CharKind.Word) {
      if (wordRun === 0) tokens++;
      wordRun = wordRun + 1 === WORD_PIECE_CHARS ? 0 : wordRun + 1;
    } else {
      wordRun = 0;
      if (kind !== CharKind.Space) tokens++;
    }
  }
  return tokens;
}

/** Characters of a word counted as one token; common English words fit in one. */
export const WORD_PIECE_CHARS = 10;

/** Kinds of character, as small integers so the ASCII table is a typed array. */
const CharKind = { Space: 0, Word: 1, Punctuation: 2, Ideograph: 3 } as const;
type CharKind = (typeof CharKind)[keyof typeof CharKind];

const ASCII_KINDS = Uint8Array.from({ length: 128 }, (_, c): CharKind => {
  const ch = String.fromCharCode(c);
  if (/\s/.test(ch)) return CharKind.Space;
  return /\w/.test(ch) ? CharKind.Word : CharKind.Punctuation;
});

const SPACE = /\s/u;
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** Documents use few distinct non-ASCII characters, so the Unicode lookups are memoized (bounded). */
const nonAsciiKinds = new Map<number, CharKind>();
const MEMOIZED_CHARACTERS = 20_000;

function kindOfNonAscii(codePoint: number): CharKind {
  let kind = nonAsciiKinds.get(codePoint);
  if (kind === undefined) {
    const ch = String.fromCodePoint(codePoint);
    kind = SPACE.test(ch)
      ? CharKind.Space
      : IDEOGRAPH.test(ch)
        ? CharKind.Ideograph
        : WORD_CHAR.test(ch)
          ? CharKind.Word
          : CharKind.Punctuation;
    if (nonAsciiKinds.size < MEMOIZED_CHARACTERS) nonAsciiKinds.set(codePoint, kind);
  }
  return kind;
}
