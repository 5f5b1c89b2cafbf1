import { type RawBuilder, sql } from 'kysely';

/**
 * A document's text is stored once, in pieces (`document_pieces`, at most PIECE_UNITS + 1 UTF-16
 * code units and PIECE_BYTES UTF-8 bytes each, keyed by where they start): a page's or snippet's
 * content is the slice [start_index, end_index) of the text, read from the pieces it overlaps, so
 * a snippet of a 60 MB document reads a piece or two instead of the whole text. Offsets count
 * UTF-16 code units as JavaScript does; SQL's substr counts code points, the same thing for a text
 * without characters outside the Basic Multilingual Plane. A text with some (documents.text_astral)
 * gives the whole pieces the slice overlaps instead, and where the first starts (contentFromSql),
 * cut here (slicedContent).
 * The SQL below runs on both dialects (string_agg with ORDER BY: SQLite 3.44 and later).
 */

/**
 * Short, because PostgreSQL's substr walks a piece's characters from its start, so a slice near the
 * end of a long piece costs many times one near its start. For ASCII text, 2,000 sits between two
 * thresholds: a full piece's row is just over the 2,032 bytes past which PostgreSQL compresses a
 * row, and two rows still fit one 4 KB SQLite page (a row over half a page leaves the rest empty).
 */
export const PIECE_UNITS = 2000;

/**
 * Most UTF-8 bytes of a piece, so that a piece of accented or non-Latin text, whose characters take
 * two or three bytes, still leaves room for a second in a SQLite page: it is cut shorter instead.
 */
export const PIECE_BYTES = 2000;

const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/** documents.text_astral of a text. */
export const astralFlag = (text: string): number => (ASTRAL.test(text) ? 1 : 0);

const utf8 = new TextEncoder();

/**
 * A text cut into its stored pieces of at most `units` UTF-16 units (one more to keep a surrogate
 * pair whole) and `bytes` UTF-8 bytes (null: units alone, as migration 031 cut them); an empty
 * text is one empty piece, so "no pieces" means "no text".
 */
export function textPieces(text: string, units = PIECE_UNITS, bytes: number | null = PIECE_BYTES): { start_index: number; text: string }[] {
  const pieces: { start_index: number; text: string }[] = [];
  const buffer = bytes === null ? null : new Uint8Array(bytes);
  let start = 0;
  do {
    let end = Math.min(start + units, text.length);
    // A surrogate pair is never split, so that each piece is a valid string.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    // encodeInto stops before the first character that does not fit, never inside a pair.
    if (buffer) end = start + utf8.encodeInto(text.slice(start, end), buffer).read;
    pieces.push({ start_index: start, text: text.slice(start, end) });
    start = end;
  } while (start < text.length);
  return pieces;
}

/** Where a query reads the pieces: `source.` in a search file, which attaches the main one. */
type Schema = '' | 'source.';

/** The whole text of a document (`document`, a documents alias), null when it has none. */
export const wholeTextExpression = (document: string, schema: Schema = ''): string =>
  `(select string_agg(x.text, '' order by x.start_index) from ${schema}document_pieces x where x.document_seq = ${document}.seq)`;

export const wholeTextSql = (document: string): RawBuilder<string | null> => sql.raw(wholeTextExpression(document));

/** The first `units` of a document's text; pass the result to slicedContent from 0, as for a slice. */
export const openingExpression = (document: string, units: number, schema: Schema = ''): string => sliceExpression(document, '0', String(units), schema);

export const openingSql = (document: string, units: number): RawBuilder<string | null> => sql.raw(openingExpression(document, units));

/**
 * The SQL reading a page's or snippet's content (`row`, a pages or chunks alias, from its
 * start_index to `end`, by default its end_index) from its document's text (`document`, a
 * documents alias); pass its result to slicedContent with the same offsets.
 */
export const contentExpression = (document: string, row: string, schema: Schema = '', end = `${row}.end_index`): string =>
  sliceExpression(document, `${row}.start_index`, end, schema);

/**
 * The pieces a slice [s, e) (SQL expressions) may overlap: a piece is at most PIECE_UNITS + 1 long.
 * The first may end before s (a shorter piece), so an astral text's pieces are cut from the first's
 * start (contentFromExpression), not from the start of the piece holding s.
 */
const overlapping = (d: string, s: string, e: string, schema: Schema): string =>
  `from ${schema}document_pieces x where x.document_seq = ${d}.seq and x.start_index < ${e} and x.start_index > ${s} - ${PIECE_UNITS + 1}`;

/** The SQL reading the text's slice [s, e) (SQL expressions) from the pieces it overlaps. */
function sliceExpression(d: string, s: string, e: string, schema: Schema): string {
  const from = `case when ${s} > x.start_index then ${s} else x.start_index end`;
  return `case when ${d}.text_astral = 1 then (select string_agg(x.text, '' order by x.start_index) ${overlapping(d, s, e, schema)})
    else (select string_agg(substr(x.text, ${from} - x.start_index + 1, ${e} - ${from}), '' order by x.start_index) ${overlapping(d, s, e, schema)}) end`;
}

/** The same for the first `units` of a page's or snippet's content (`row`), what an embedder reads of it. */
export function rowOpeningExpression(document: string, row: string, units: number, schema: Schema = ''): string {
  const [s, e] = [`${row}.start_index`, `${row}.end_index`];
  return contentExpression(document, row, schema, `case when ${e} < ${s} + ${units} then ${e} else ${s} + ${units} end`);
}

/** Where what contentExpression reads starts in the text: the slice's start, or an astral text's first piece read. */
export function contentFromExpression(document: string, row: string, schema: Schema = ''): string {
  const s = `${row}.start_index`;
  return `case when ${document}.text_astral = 1 then (select min(x.start_index) ${overlapping(document, s, `${row}.end_index`, schema)}) else ${s} end`;
}

export const contentSql = (document: string, row: string): RawBuilder<string> => sql.raw(contentExpression(document, row));
export const contentFromSql = (document: string, row: string): RawBuilder<number> => sql.raw(contentFromExpression(document, row));

/** The same through a subquery on the row's document_id, for a query that has not joined it. */
export const contentOfRow = (row: string): RawBuilder<string> => sql`(select ${contentSql('y', row)} from documents y where y.id = ${sql.raw(row)}.document_id)`;
export const contentFromOfRow = (row: string): RawBuilder<number> => sql`(select ${contentFromSql('y', row)} from documents y where y.id = ${sql.raw(row)}.document_id)`;

/**
 * What contentSql read, which starts at `from` in the text (contentFromSql), cut to the slice
 * [start, end): an astral text's whole pieces are cut; a slice read exactly comes back as it is.
 */
export function slicedContent(content: string | null, start: number, end: number, from: number): string {
  return content === null ? '' : content.slice(start - from, end - from);
}

/** A hit's content cut from what contentSql read: the offsets and `from` it was read with, dropped once it is cut. */
export interface ContentSlice {
  sliceStart: number;
  sliceEnd: number;
  sliceFrom: number;
}

/** A page hit with its content cut from what contentSql read (null unless asked for). */
export function pageContent<Hit extends ContentSlice & { content: string | null }>(hit: Hit, includeContent: boolean): Omit<Hit, keyof ContentSlice> {
  const { sliceStart, sliceEnd, sliceFrom, ...rest } = hit;
  rest.content = includeContent ? slicedContent(hit.content, sliceStart, sliceEnd, sliceFrom) : null;
  return rest;
}

/** A snippet hit with its content cut from what contentSql read. */
export function snippetContent<Hit extends { content: string; startIndex: number; endIndex: number; sliceFrom: number }>(hit: Hit): Omit<Hit, 'sliceFrom'> {
  const { sliceFrom, ...rest } = hit;
  rest.content = slicedContent(hit.content, hit.startIndex, hit.endIndex, sliceFrom);
  return rest;
}
