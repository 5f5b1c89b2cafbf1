/**
 * Turns a document's pages into the text the index stores and two granularities of snippets.
 * Every offset is an index into `text` (UTF-16 code units, like String#slice), so
 * `text.slice(start_index, end_index) === content` holds for pages and snippets alike.
 */

export interface Snippet {
  content: string;
  start_index: number;
  end_index: number;
  /** [first page, last page + 1) */
  page_span: [number, number];
}

export interface PageRange {
  page_index: number;
  content: string;
  start_index: number;
  end_index: number;
}

export interface ChunkedDocument {
  /** The document's text: pages joined by PAGE_SEPARATOR. */
  text: string;
  pages: PageRange[];
  coarse: Snippet[];
  fine: Snippet[];
}

export const PAGE_SEPARATOR = '\n\n';
export const COARSE_SNIPPET_CHARS = 2000;
export const FINE_SNIPPET_CHARS = 200;

/**
 * A sentence or paragraph end is preferred over a plain word boundary only in the second half of
 * the window: earlier, it would make snippets much smaller than their nominal size.
 */
const PREFERRED_CUT_MIN_FRACTION = 0.5;

export function chunkPages(pages: string[]): ChunkedDocument {
  const text = pages.join(PAGE_SEPARATOR);
  const pageRanges: PageRange[] = [];
  let offset = 0;
  for (let page_index = 0; page_index < pages.length; page_index++) {
    const content = pages[page_index];
    pageRanges.push({ page_index, content, start_index: offset, end_index: offset + content.length });
    offset += content.length + PAGE_SEPARATOR.length;
  }
  return {
    text,
    pages: pageRanges,
    coarse: cutSnippets(text, pageRanges, COARSE_SNIPPET_CHARS),
    fine: cutSnippets(text, pageRanges, FINE_SNIPPET_CHARS),
  };
}

/**
 * Cuts `text` into snippets of at most `limit` characters that start and end on non-whitespace,
 * in order, without overlaps, leaving out only whitespace. Linear time: each window is scanned
 * once backwards from its end, and the next window starts where the cut was made.
 */
export function cutSnippets(text: string, pages: PageRange[], limit: number): Snippet[] {
  if (limit < 2) throw new RangeError('A snippet limit must be at least 2 characters');
  const snippets: Snippet[] = [];
  const pageOf = pageLocator(pages);
  let start = skipWhitespace(text, 0);
  while (start < text.length) {
    const end = findCut(text, start, limit);
    const firstPage = pageOf(start);
    const lastPage = pageOf(end - 1);
    snippets.push({ content: text.slice(start, end), start_index: start, end_index: end, page_span: [firstPage, lastPage + 1] });
    start = skipWhitespace(text, end);
  }
  return snippets;
}

/** End (exclusive) of the snippet that starts at `start`, a non-whitespace character. */
function findCut(text: string, start: number, limit: number): number {
  const windowEnd = start + limit;
  if (windowEnd >= text.length) return trimEnd(text, start, text.length);

  const preferredFrom = start + Math.ceil(limit * PREFERRED_CUT_MIN_FRACTION);
  let lastWordEnd = -1;
  // A cut at b ends the snippet with text[b - 1], which must not be whitespace.
  for (let b = windowEnd; b > start; b--) {
    const before = text.charCodeAt(b - 1);
    if (isWhitespace(before)) continue;
    const atWordEnd = isWhitespace(text.charCodeAt(b));
    if (b >= preferredFrom) {
      // Full-width stops (CJK) end sentences without a following space.
      if (atWordEnd ? endsSentence(text, b) || blankLineFollows(text, b) : isFullWidthStop(before)) return b;
    } else if (lastWordEnd >= 0) {
      break;
    }
    if (atWordEnd && lastWordEnd < 0) lastWordEnd = b;
  }
  if (lastWordEnd >= 0) return lastWordEnd;
  // No whitespace in the window: the word that starts here is longer than the limit.
  return hardCut(text, start, windowEnd);
}

/** Cuts a word longer than the limit, never between the two halves of a surrogate pair. */
function hardCut(text: string, start: number, end: number): number {
  if (isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) {
    return end - 1 > start ? end - 1 : end + 1;
  }
  return end;
}

const CLOSING_MARKS = new Set([0x22, 0x27, 0x29, 0x5d, 0x7d, 0x2019, 0x201d, 0xbb]); // " ' ) ] } ’ ” »
const SENTENCE_STOPS = new Set([0x2e, 0x21, 0x3f, 0x2026]); // . ! ? …

/** Whether the non-whitespace run ending at `end` closes a sentence, e.g. `end.` or `said!"`. */
function endsSentence(text: string, end: number): boolean {
  let i = end - 1;
  // At most a couple of closing quotes or brackets between the stop and the space.
  for (let k = 0; k < 2 && i > 0 && CLOSING_MARKS.has(text.charCodeAt(i)); k++) i--;
  const c = text.charCodeAt(i);
  return SENTENCE_STOPS.has(c) || isFullWidthStop(c);
}

/** Whether the whitespace run starting at `from` holds an empty line (a paragraph or page break). */
function blankLineFollows(text: string, from: number): boolean {
  let newlines = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isWhitespace(c)) return false;
    if (c === 0x0a && ++newlines === 2) return true;
  }
  return false;
}

function isFullWidthStop(c: number): boolean {
  return c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0xff0e; // 。！？．
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && isWhitespace(text.charCodeAt(e - 1))) e--;
  return e;
}

/** The same characters as the RegExp class \s, without a regular expression per character. */
export function isWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Page index of a text position, for positions asked in non-decreasing order (snippets come in
 * order), so the whole document costs one pass. Positions are non-whitespace characters, hence
 * inside a page: the separators between pages are whitespace.
 */
function pageLocator(pages: PageRange[]): (position: number) => number {
  let cursor = 0;
  return (position) => {
    while (cursor < pages.length - 1 && position >= pages[cursor].end_index) cursor++;
    return cursor;
  };
}
