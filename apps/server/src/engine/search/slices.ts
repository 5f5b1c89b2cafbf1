import { type RawBuilder, sql } from 'kysely';

/**
 * A document's text is stored once (documents.text); a page's or snippet's content is the slice
 * [start_index, end_index) of it, in UTF-16 code units as JavaScript counts. SQL's substr counts
 * code points on both dialects, the same thing for a text without characters outside the Basic
 * Multilingual Plane; a text with some (documents.text_astral) gives the prefix up to end_index
 * code points instead, which holds the slice, cut here (slicedContent).
 */

const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/** documents.text_astral of a text. */
export const astralFlag = (text: string): number => (ASTRAL.test(text) ? 1 : 0);

/**
 * The SQL reading a row's content from its document (`document`, a documents alias) by the row's
 * offsets (`row`, a pages or chunks alias); pass its result to slicedContent with the same offsets.
 */
export function contentSql(document: string, row: string): RawBuilder<string> {
  const [d, r] = [document, row];
  return sql.raw(
    `case when ${d}.text_astral = 1 then substr(${d}.text, 1, ${r}.end_index) else substr(${d}.text, ${r}.start_index + 1, ${r}.end_index - ${r}.start_index) end`,
  );
}

/** The same through a subquery on the row's document_id, for a query that has not joined it. */
export const contentOfRow = (row: string): RawBuilder<string> => sql`(select ${contentSql('x', row)} from documents x where x.id = ${sql.raw(row)}.document_id)`;

/**
 * What contentSql read, as the slice: a prefix (an astral text's) is longer than the slice
 * whenever the slice does not start at 0, and cut; a slice read by code points is already exact.
 */
export function slicedContent(content: string | null, start: number, end: number): string {
  if (content === null) return '';
  return content.length === end - start ? content : content.slice(start, end);
}

/** A page hit's offsets, read with its content and dropped once it is cut (pageContent). */
export interface PageSlice {
  sliceStart: number;
  sliceEnd: number;
}

/** A page hit with its content cut from what contentSql read (null unless asked for). */
export function pageContent<Hit extends PageSlice & { content: string | null }>(hit: Hit, includeContent: boolean): Omit<Hit, keyof PageSlice> {
  const { sliceStart, sliceEnd, ...rest } = hit;
  rest.content = includeContent ? slicedContent(hit.content, sliceStart, sliceEnd) : null;
  return rest;
}

/** A snippet hit with its content cut from what contentSql read. */
export function snippetContent<Hit extends { content: string; startIndex: number; endIndex: number }>(hit: Hit): Hit {
  hit.content = slicedContent(hit.content, hit.startIndex, hit.endIndex);
  return hit;
}
