import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as textInPieces from '../src/db/migrations/024_text_in_pieces.ts';
import * as shorterPieces from '../src/db/migrations/031_shorter_pieces.ts';
import * as piecesInBytes from '../src/db/migrations/032_pieces_in_bytes.ts';
import { PIECE_BYTES, PIECE_UNITS, textPieces } from '../src/engine/search/slices.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * A document's text is stored in pieces (slices.ts): a page's or snippet's content read from the
 * pieces it overlaps is exactly its slice of the text, across piece boundaries, with characters
 * outside the Basic Multilingual Plane, and the whole text comes back whole.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;

const WORDS = ['harbor', 'tide', 'gull', 'rope', 'sail', 'keel', 'mast', 'anchor', 'reef', 'buoy'];
/** Words of two and three UTF-8 bytes a character beside plain ones. */
const ACCENTED_WORDS = [...WORDS, 'forêt', 'château', 'élève', 'garçon', 'naïve', 'река', 'город', '港口'];
/** Deterministic prose of `length` characters. */
function prose(length: number, seed: number, words = WORDS): string {
  let text = '';
  for (let i = seed; text.length < length; i = (i * 31 + 7) % 1009) text += `${words[i % words.length]}${i % 7 === 6 ? '. ' : ' '}`;
  return text.slice(0, length);
}
/** A word searched for, put at `offset` of a text. */
const marked = (text: string, offset: number) => `${text.slice(0, offset)} beaconmark ${text.slice(offset)}`;

/** Three pages longer than a piece whose markers sit near the pieces' boundaries once joined by blank lines. */
const PAGE_CHARS = Math.round(PIECE_UNITS * 1.2);
const LONG_PAGES = [1, 2, 3].map((n) => marked(prose(PAGE_CHARS, n), n * PIECE_UNITS - (n - 1) * (PAGE_CHARS + 2) - 50 + n * 10));
/** One page whose first astral character straddles the first pieces' boundary. */
const ASTRAL_PAGES = [`${marked(prose(PIECE_UNITS - 13, 4), 100)}\u{1F30A} beaconmark \u{1F426}${prose(20_000, 5)} beaconmark`];
/** Two pages of accented and non-Latin prose, cut at PIECE_BYTES rather than PIECE_UNITS, markers every 700 characters. */
const ACCENTED_PAGES = [6, 7].map((seed) => {
  let page = prose(PAGE_CHARS * 2, seed, ACCENTED_WORDS);
  for (let offset = page.length - 700; offset > 0; offset -= 700) page = marked(page, offset);
  return page;
});
/** An astral text whose second page starts exactly where its second piece does (the first is ASCII, two units short of a piece, then a blank line). */
const BOUNDARY_PAGES = [marked(prose(PIECE_UNITS - 14, 8), 100), `\u{1F30A} beaconmark ${prose(3_000, 9)} beaconmark`];
const DOCUMENTS = [
  ['long.txt', LONG_PAGES],
  ['astral.txt', ASTRAL_PAGES],
  ['accented.txt', ACCENTED_PAGES],
  ['boundary.txt', BOUNDARY_PAGES],
] as const;
/** Each document's whole text, by path. */
const textOf = Object.fromEntries(DOCUMENTS.map(([path, pages]) => [path, pages.join('\n\n')]));

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: 'pieces' }, f.keyA);
  for (const [path, pages] of DOCUMENTS) {
    const added = await h.call('/v1/documents/add-document', { collection_name: 'pieces', path, content: { type: 'text-pages', pages } }, f.keyA);
    expect(added.status).toBe(201);
  }
  await f.workers.idle();
}, 120_000);
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

test("boundary.txt's second page starts where its second piece does", () => {
  expect(textPieces(textOf['boundary.txt']!)[1]!.start_index).toBe(BOUNDARY_PAGES[0]!.length + 2);
});

describe.each(DOCUMENTS)('%s', (path, pages) => {
  const text = textOf[path]!;

  test('its whole text comes back with the document', async () => {
    const info = await h.call('/v1/documents/get-document-info', { collection_name: 'pieces', path, include_content: true }, f.keyA);
    expect(info.body.document.content).toBe(text);
  });

  test.each([
    ['beaconmark', true],
    ['beaconmark', false],
    ['harbor anchor', true],
    ['harbor anchor', false],
  ])('each %s snippet (precise: %s) holds its slice of the text', async (query, precise) => {
    const { body } = await h.call('/v1/queries/top-snippets', { collection_name: 'pieces', query, k: 128, precise_responses: precise }, f.keyA);
    const hits = body.results.filter((hit: { path: string }) => hit.path === path);
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.content).toBe(text.slice(hit.start_index, hit.end_index));
  });

  test('each page read alone holds its page', async () => {
    for (const [page_index, page] of pages.entries()) {
      const { body } = await h.call('/v1/documents/get-page-info', { collection_name: 'pieces', path, page_index, include_content: true }, f.keyA);
      expect(body.page.content).toBe(page);
    }
  });

  test('its opening, what a reranker reads of it, is its first units', async () => {
    const { id } = await h.database.db.selectFrom('documents').select('id').where('path', '=', path).executeTakeFirstOrThrow();
    for (const units of [8_000, PIECE_UNITS * 2 + 7, 100]) expect((await h.engine.search.openings([id], units)).get(id)).toBe(text.slice(0, units));
  });

  test('each page hit holds its page', async () => {
    const { body } = await h.call('/v1/queries/top-pages', { collection_name: 'pieces', query: 'beaconmark', k: 10, include_content: true }, f.keyA);
    const hits = body.results.filter((hit: { path: string }) => hit.path === path);
    expect(hits.map((hit: { page_index: number }) => hit.page_index).sort()).toEqual(pages.map((_, i) => i));
    for (const hit of hits) expect(hit.content).toBe(pages[hit.page_index]);
  });
});

const pieceLengths = async (measure: 'length' | 'octet_length' = 'length') =>
  (await sql<{ n: number }>`select ${sql.raw(measure)}(text) as n from document_pieces order by document_seq, start_index`.execute(h.database.db)).rows.map((row) => Number(row.n));

/** Every beaconmark snippet of every document holds its exact slice of the text. */
async function expectEverySnippetItsSlice(): Promise<void> {
  const { body } = await h.call('/v1/queries/top-snippets', { collection_name: 'pieces', query: 'beaconmark', k: 128, precise_responses: true }, f.keyA);
  for (const [path] of DOCUMENTS) {
    const text = textOf[path]!;
    const hits = body.results.filter((hit: { path: string }) => hit.path === path);
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.content).toBe(text.slice(hit.start_index, hit.end_index));
  }
}

test('migrations 031 and 032 cut the long pieces of a database before them again, every snippet holding its slice as before', async () => {
  const db = h.database.db as unknown as Kysely<unknown>;
  const fresh = await pieceLengths();
  await piecesInBytes.down(db);
  await shorterPieces.down(db);
  expect(Math.max(...(await pieceLengths()))).toBeGreaterThan(PIECE_UNITS + 1);
  await shorterPieces.up(db);
  await piecesInBytes.up(db);
  expect(await pieceLengths()).toEqual(fresh);
  await expectEverySnippetItsSlice();
});

test('migration 032 cuts again only the pieces over PIECE_BYTES, at their bytes', async () => {
  const db = h.database.db as unknown as Kysely<unknown>;
  const fresh = await pieceLengths();
  expect(Math.max(...(await pieceLengths('octet_length')))).toBeLessThanOrEqual(PIECE_BYTES);
  await piecesInBytes.down(db);
  expect(Math.max(...(await pieceLengths('octet_length')))).toBeGreaterThan(PIECE_BYTES);
  await piecesInBytes.up(db);
  expect(await pieceLengths()).toEqual(fresh);
  await expectEverySnippetItsSlice();
});

test.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')('migration 031 failing halfway on SQLite leaves every text whole, and goes on at the next run', async () => {
  const db = h.database.db as unknown as Kysely<unknown>;
  const texts = async () =>
    (await sql<{ text: string }>`select string_agg(text, '' order by start_index) as text from document_pieces group by document_seq order by document_seq`.execute(db)).rows.map((row) => row.text);
  const before = await texts();
  expect(before).toEqual(DOCUMENTS.map(([path]) => textOf[path]));
  await shorterPieces.down(db);
  // The last document's new pieces are refused, after the first's were written.
  const { last } = await db.selectFrom('documents' as never).select(sql<number>`max(seq)`.as('last')).executeTakeFirstOrThrow();
  await sql`create trigger refuse_pieces before insert on document_pieces when new.document_seq = ${sql.lit(last)} begin select raise(abort, 'refused'); end`.execute(db);
  await expect(shorterPieces.up(db)).rejects.toThrow('refused');
  expect(await texts()).toEqual(before);
  await sql`drop trigger refuse_pieces`.execute(db);
  await shorterPieces.up(db);
  expect(await texts()).toEqual(before);
  const { longest } = await db.selectFrom('document_pieces' as never).select(sql<number>`max(length(text))`.as('longest')).executeTakeFirstOrThrow();
  expect(Number(longest)).toBeLessThanOrEqual(PIECE_UNITS + 1);
  // As the migrator would go on: the accented text's pieces bounded in bytes again.
  await piecesInBytes.up(db);
});

test("a deleted document's text goes with it", async () => {
  const pieces = () => h.database.db.selectFrom('document_pieces').innerJoin('documents', 'documents.seq', 'document_pieces.document_seq').select('documents.path').execute();
  const paths = DOCUMENTS.map(([path]) => path);
  expect(new Set((await pieces()).map((row) => row.path))).toEqual(new Set(paths));
  expect((await h.call('/v1/documents/delete-document', { collection_name: 'pieces', path: 'long.txt' }, f.keyA)).status).toBe(200);
  const left = paths.filter((path) => path !== 'long.txt');
  expect(new Set((await pieces()).map((row) => row.path))).toEqual(new Set(left));
  const { count } = await h.database.db.selectFrom('document_pieces').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  expect(Number(count)).toBe(left.reduce((sum, path) => sum + textPieces(textOf[path]!).length, 0));
});

// SQLite's migrator runs no transaction of its own: a migration that fails halfway must leave the
// texts where they were. (PostgreSQL's runs each migration in one.)
test.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')('migration 024 failing halfway on SQLite leaves every text in its document', async () => {
  const db = h.database.db as unknown as Kysely<unknown>;
  const texts = async () => (await sql<{ text: string }>`select text from documents order by seq`.execute(db)).rows.map((row) => row.text);
  await textInPieces.down(db);
  const before = await texts();
  expect(before).toEqual(DOCUMENTS.filter(([path]) => path !== 'long.txt').map(([path]) => textOf[path]));
  // A view reading the column makes its drop, the migration's last step, fail.
  await sql`create view document_texts as select text from documents`.execute(db);
  await expect(textInPieces.up(db)).rejects.toThrow();
  expect(await texts()).toEqual(before);
  expect((await sql`select name from sqlite_master where name = 'document_pieces'`.execute(db)).rows).toEqual([]);
  await sql`drop view document_texts`.execute(db);
  await textInPieces.up(db);
  const info = await h.call('/v1/documents/get-document-info', { collection_name: 'pieces', path: 'astral.txt', include_content: true }, f.keyA);
  expect(info.body.document.content).toBe(before[0]);
});
