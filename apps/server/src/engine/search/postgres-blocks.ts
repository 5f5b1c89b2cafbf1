import { type Kysely, type RawBuilder, sql } from 'kysely';
import { hasPostgresCode, POSTGRES_ERRORS } from '../../db/postgres-errors.ts';
import type { Granularity } from './types.ts';

/**
 * PostgreSQL's postings tables, one a collection, and the blocks they hold: written by an
 * indexing transaction, removed by search_remove_postings (migrations 025, 026), merged while
 * ingestion is idle.
 */

/** A posting's granularity (migration 011): a smallint in each of the many rows and in their key. */
export const GRANULARITY_CODES: Record<Granularity, number> = { documents: 0, pages: 1, coarse: 2, fine: 3 };

/**
 * A one-page document whose page is its whole text has the same postings as a document and as a
 * page: they are written once, under this code, with the page's seqs as rows and the document's
 * as documents, and read by both granularities' searches (CODES_READ). Most uploads are one page,
 * so a copy of each of their postings is saved.
 */
export const ONE_PAGE_DOCUMENT = 4;

/** The codes of the postings a search of each granularity reads. */
const CODES_READ: Record<Granularity, readonly number[]> = {
  documents: [GRANULARITY_CODES.documents, ONE_PAGE_DOCUMENT],
  pages: [GRANULARITY_CODES.pages, ONE_PAGE_DOCUMENT],
  coarse: [GRANULARITY_CODES.coarse],
  fine: [GRANULARITY_CODES.fine],
};

/** `column in (<the codes a search of this granularity reads>)`, the codes as literals (statements are compiled once). */
export const readsCodes = (column: RawBuilder<unknown>, granularity: Granularity): RawBuilder<unknown> =>
  sql`${column} in (${sql.join(CODES_READ[granularity].map((code) => sql.lit(code)))})`;

/**
 * A collection's postings table (migration 019): each collection's postings in a table of their
 * own, made when its first documents are indexed and dropped with it, so a search reads only its
 * collection's index and statistics, and its plan is made for them, whatever other organizations
 * hold (in one table for all, a small collection's searches slowed beside another organization's
 * large one). Not partitions of one parent: a statement on a partitioned table locks
 * every partition when run on a plan made once, and a query naming a partition locks the parent.
 */
export const postingsTable = (collectionKey: number): RawBuilder<unknown> => sql.table(`search_postings_${collectionKey}`);

/**
 * The collection's postings table unless it has one (migration 025): a row per granularity, term
 * and block, its postings as arrays (rows, their documents, term frequencies, row
 * lengths). An indexing transaction writes blocks of its own (writeBlock); search_document_blocks
 * names the blocks holding a document's postings, found through the block index when it is
 * deleted or reindexed (search_remove_postings). A row a posting cost more in row header, index
 * entries and alignment than the posting itself: most of the database.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createPostingsTable(db: Kysely<any>, collectionKey: number): Promise<void> {
  await createBlocksTable(db, `search_postings_${collectionKey}`);
}

/** A postings table named `name`, its primary key `<name>_pkey` and its block index `<name>_block`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createBlocksTable(db: Kysely<any>, name: string): Promise<void> {
  await sql`
    create table if not exists ${sql.table(name)} (
      block bigint not null,
      granularity smallint not null,
      term text collate "C" not null,
      row_seqs bigint[] not null,
      document_seqs bigint[] not null,
      tfs integer[] not null,
      lengths integer[] not null,
      constraint ${sql.id(`${name}_pkey`)} primary key (granularity, term, block)
    )`.execute(db);
  await sql`create index if not exists ${sql.id(`${name}_block`)} on ${sql.table(name)} (block)`.execute(db);
  // No plan reads the arrays' statistics, and gathering them cost most of an ANALYZE (migration 030).
  await sql`
    alter table ${sql.table(name)} alter column row_seqs set statistics 0, alter column document_seqs set statistics 0,
      alter column tfs set statistics 0, alter column lengths set statistics 0`.execute(db);
}

/** Postings of one collection and granularity code to be written as a block: each term's, column by column; the documents they come from. */
export class PendingBlock {
  constructor(
    readonly collection: number,
    readonly code: number,
  ) {}

  readonly terms = new Map<string, { seqs: number[]; documents: number[]; tfs: number[]; lengths: number[] }>();
  readonly documents = new Set<number>();
  postings = 0;

  add(seq: number, document: number, length: number, frequencies: Map<string, number>): void {
    this.documents.add(document);
    for (const [term, tf] of frequencies) {
      let postings = this.terms.get(term);
      if (!postings) this.terms.set(term, (postings = { seqs: [], documents: [], tfs: [], lengths: [] }));
      postings.seqs.push(seq);
      postings.documents.push(document);
      postings.tfs.push(tf);
      postings.lengths.push(length);
    }
    this.postings += frequencies.size;
  }
}

/** Postings a block holds at most: a large document's are written in several, its memory bounded. */
export const BLOCK_POSTINGS = 200_000;

/**
 * Postings gathered for a collection, written to its table as a block of a new
 * number: a row per term, each array handed over as one comma-separated text; which
 * documents the block holds (search_document_blocks); and its size (search_block_sizes).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function writeBlock(trx: Kysely<any>, block: PendingBlock): Promise<void> {
  const { collection, code } = block;
  if (block.terms.size === 0) return;
  const columns = { terms: [] as string[], seqs: [] as string[], documents: [] as string[], tfs: [] as string[], lengths: [] as string[] };
  for (const [term, postings] of block.terms) {
    columns.terms.push(term);
    columns.seqs.push(postings.seqs.join(','));
    columns.documents.push(postings.documents.join(','));
    columns.tfs.push(postings.tfs.join(','));
    columns.lengths.push(postings.lengths.join(','));
  }
  await sql`
    with b as (select nextval('search_blocks') as block),
    held as (insert into search_document_blocks (document_seq, block) select d, b.block from b, unnest(${list([...block.documents])}::bigint[]) as d on conflict do nothing),
    sized as (insert into search_block_sizes (block, collection_key, granularity, postings) select b.block, ${collection}, ${code}, ${block.postings} from b)
    insert into ${postingsTable(collection)} (block, granularity, term, row_seqs, document_seqs, tfs, lengths)
    select b.block, ${code}::smallint, x.t, string_to_array(x.s, ',')::bigint[], string_to_array(x.d, ',')::bigint[],
           string_to_array(x.f, ',')::int[], string_to_array(x.l, ',')::int[]
    from b, unnest(${list(columns.terms)}, ${list(columns.seqs)}, ${list(columns.documents)}, ${list(columns.tfs)}, ${list(columns.lengths)}) as x(t, s, d, f, l)`.execute(trx);
}

/**
 * Values as one text parameter that PostgreSQL splits (a text[]; cast for numbers): the driver
 * quotes and escapes each element of an array parameter, which cost the indexing thread more
 * than analysing the text. Terms hold no space (the analyzer's words are letters and digits).
 */
export const list = (values: (string | number)[]): RawBuilder<string[]> => sql`string_to_array(${values.join(' ')}, ' ')`;

/** Blocks under this many postings are merged; a merge stops once it holds BLOCK_POSTINGS. */
const SMALL_BLOCK = BLOCK_POSTINGS / 4;

/**
 * One step of idle upkeep: a collection's small blocks of one granularity merged into one block,
 * as FTS5 merges its segments. An indexing transaction writes a block of its own, a few dozen
 * documents, so a rare term's row holds a posting or two beside a row's and its index entries'
 * bytes, and a search reads a row a block for each term. False when no collection has two small
 * blocks of a granularity, or another server is merging the one found.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function mergeBlocksStep(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ key: string; granularity: number }>`
    select collection_key as key, granularity from search_block_sizes where postings < ${SMALL_BLOCK} and granularity is not null
    group by collection_key, granularity having count(*) > 1 limit 1`.execute(db);
  const found = rows[0];
  if (!found) return false;
  try {
    return await db.transaction().execute((trx) => mergeBlocks(trx, Number(found.key), found.granularity));
  } catch (error) {
    // Its collection deleted meanwhile, the postings table with it: its sizes go with the next deletions' upkeep.
    if (!hasPostgresCode(error, POSTGRES_ERRORS.undefinedTable)) throw error;
    return false;
  }
}

/**
 * The oldest small blocks of a collection and granularity, up to BLOCK_POSTINGS, written as one
 * block of a new number. Their documents' records are locked in block order, as a removal locks
 * them, so the two run one after the other; what the blocks hold is read once locked.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function mergeBlocks(trx: Kysely<any>, collectionKey: number, granularity: number): Promise<boolean> {
  const { rows: lock } = await sql<{ taken: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${`search merge ${collectionKey}`}, 0)) as taken`.execute(trx);
  if (!lock[0]!.taken) return false;
  const { rows: small } = await sql<{ block: string; postings: string }>`
    select block, postings from search_block_sizes
    where collection_key = ${collectionKey} and granularity = ${granularity} and postings < ${SMALL_BLOCK} order by block`.execute(trx);
  const picked: number[] = [];
  for (let total = 0, i = 0; i < small.length && total < BLOCK_POSTINGS; i++) {
    picked.push(Number(small[i]!.block));
    total += Number(small[i]!.postings);
  }
  if (picked.length < 2) return false;
  await sql`select count(*) from (select 1 from search_document_blocks where block = any(${picked}::bigint[]) order by block, document_seq for update) locked`.execute(trx);
  const { rows: numbered } = await sql<{ block: string }>`select nextval('search_blocks') as block`.execute(trx);
  const merged = Number(numbered[0]!.block);
  await sql`
    with old as (delete from ${postingsTable(collectionKey)} p where p.block = any(${picked}::bigint[]) returning p.*)
    insert into ${postingsTable(collectionKey)} (block, granularity, term, row_seqs, document_seqs, tfs, lengths)
    select ${merged}, o.granularity, o.term, array_agg(x.r order by x.r), array_agg(x.d order by x.r), array_agg(x.t order by x.r), array_agg(x.l order by x.r)
    from old o cross join lateral unnest(o.row_seqs, o.document_seqs, o.tfs, o.lengths) as x(r, d, t, l)
    group by o.granularity, o.term`.execute(trx);
  await sql`insert into search_document_blocks (document_seq, block) select distinct document_seq, ${merged}::bigint from search_document_blocks where block = any(${picked}::bigint[])`.execute(trx);
  await sql`delete from search_document_blocks where block = any(${picked}::bigint[])`.execute(trx);
  await sql`
    with gone as (delete from search_block_sizes where collection_key = ${collectionKey} and block = any(${picked}::bigint[]) returning postings)
    insert into search_block_sizes (block, collection_key, granularity, postings)
    select ${merged}, ${collectionKey}, ${granularity}, sum(postings) from gone having count(*) > 0`.execute(trx);
  return true;
}

/** The sizes of blocks whose collection is gone (its postings table dropped with it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropOrphanedBlockSizes(db: Kysely<any>): Promise<void> {
  await sql`delete from search_block_sizes s where not exists (select 1 from search_collections k where k.key = s.collection_key)`.execute(db);
}

/**
 * Merging leaves the old blocks' rows dead in the table: space PostgreSQL reuses for new rows but
 * never gives back to the disk. Once a collection's postings table has had more rows deleted than
 * it holds, it is copied into a new table that takes its name, in term order. Writes to it wait
 * during the copy (an exclusive lock); searches go on reading it and wait only for the rename,
 * at most a second (lock_timeout; past it, the next idle step tries again). False when no table
 * needs it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function compactPostingsStep(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and relname ~ '^search_postings_[0-9]+$' and n_tup_del > greatest(n_live_tup, 1000) limit 1`.execute(db);
  const name = rows[0]?.name;
  if (!name) return false;
  const copy = `${name}_compact`;
  try {
    await db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '1s'`.execute(trx);
      await sql`lock table ${sql.table(name)} in exclusive mode`.execute(trx);
      await createBlocksTable(trx, copy);
      await sql`insert into ${sql.table(copy)} select * from ${sql.table(name)} order by granularity, term, block`.execute(trx);
      await sql`drop table ${sql.table(name)}`.execute(trx);
      await sql`alter table ${sql.table(copy)} rename to ${sql.id(name)}`.execute(trx);
      await sql`alter table ${sql.table(name)} rename constraint ${sql.id(`${copy}_pkey`)} to ${sql.id(`${name}_pkey`)}`.execute(trx);
      await sql`alter index ${sql.id(`${copy}_block`)} rename to ${sql.id(`${name}_block`)}`.execute(trx);
    });
  } catch (error) {
    // Busy past the timeout, or dropped with its collection meanwhile: nothing lost, tried again later.
    if (!hasPostgresCode(error, POSTGRES_ERRORS.lockNotAvailable, POSTGRES_ERRORS.undefinedTable)) throw error;
    return false;
  }
  return true;
}
