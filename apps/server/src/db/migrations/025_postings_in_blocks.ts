import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

/**
 * PostgreSQL: a collection's postings packed in blocks, one row per granularity, term and block
 * (arrays of rows, documents, term frequencies and lengths) instead of one row a posting: a
 * posting's row header, index entries and alignment cost many times the posting itself, and
 * made up most of the database. An indexing transaction writes its documents' postings as blocks
 * of its own; search_document_blocks says which blocks hold a document's postings, so deleting or
 * reindexing it rewrites only those (search_remove_postings, also run by the documents' deletion
 * trigger). Existing postings are packed 64 documents to a block, numbered below zero (new blocks
 * come from a sequence). SQLite: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create sequence search_blocks`.execute(db);
  await sql`create table search_document_blocks (document_seq bigint not null, block bigint not null, primary key (document_seq, block))`.execute(db);
  for (const key of await postingsKeys(db)) {
    const packed = sql.table(`search_postings_${key}`);
    const old = await renamed(db, key, 'rows', 'document');
    await createBlocksTable(db, key);
    await sql`
      insert into ${packed} (block, granularity, term, row_seqs, document_seqs, tfs, lengths)
      select -(document_seq / 64) - 1, granularity, term, array_agg(row_seq order by row_seq), array_agg(document_seq order by row_seq),
             array_agg(tf order by row_seq), array_agg(length order by row_seq)
      from ${old} group by granularity, term, document_seq / 64`.execute(db);
    await sql`insert into search_document_blocks (document_seq, block) select distinct document_seq, -(document_seq / 64) - 1 from ${old}`.execute(db);
    await sql`drop table ${old}`.execute(db);
  }
  await createRemovePostings(db);
  // Which blocks held them goes too when the collection's key went first (its postings table is
  // dropped with the collection, its blocks with it).
  await removedTrigger(db, sql`perform search_remove_postings(collection_key, seqs);`, sql`delete from search_document_blocks where document_seq in (select seq from removed);`);
}

/** This migration's search_remove_postings (026 replaces it, and restores it going down). */
export async function createRemovePostings(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function search_remove_postings(collection_key bigint, seqs bigint[]) returns void language plpgsql as $$
    declare
      blocks bigint[];
    begin
      select array_agg(distinct block) into blocks from search_document_blocks where document_seq = any(seqs);
      -- Documents indexed for the first time hold none: nothing to read (a statement planned
      -- without the blocks in hand may scan the whole table).
      if blocks is null then return; end if;
      -- Removals from the same blocks one after the other: the second must read the rows the
      -- first wrote again, which a statement begun before the first committed would not see.
      perform 1 from search_document_blocks where block = any(blocks) order by block, document_seq for update;
      -- A block losing some of its postings is written again with the rest; one losing all, not.
      execute format($f$
        with old as (delete from %1$I p where p.block = any($2) and p.document_seqs && $1 returning p.*)
        insert into %1$I (block, granularity, term, row_seqs, document_seqs, tfs, lengths)
        select o.block, o.granularity, o.term, array_agg(x.r order by x.i), array_agg(x.d order by x.i), array_agg(x.t order by x.i), array_agg(x.l order by x.i)
        from old o cross join lateral unnest(o.row_seqs, o.document_seqs, o.tfs, o.lengths) with ordinality as x(r, d, t, l, i)
        where x.d <> all($1)
        group by o.block, o.granularity, o.term$f$, 'search_postings_' || collection_key) using seqs, blocks;
      delete from search_document_blocks where document_seq = any(seqs);
    end $$`.execute(db);
}

/** Back to one row a posting (migration 019). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await removedTrigger(db, sql`execute format('delete from %I where document_seq = any($1)', 'search_postings_' || collection_key) using seqs;`);
  await sql`drop function search_remove_postings`.execute(db);
  for (const key of await postingsKeys(db)) {
    const rows = sql.table(`search_postings_${key}`);
    const old = await renamed(db, key, 'blocks', 'block');
    await sql`
      create table ${rows} (
        row_seq bigint not null, document_seq bigint not null, tf integer not null, length integer not null,
        granularity smallint not null, term text collate "C" not null,
        primary key (granularity, term, row_seq) include (document_seq, tf, length))`.execute(db);
    await sql`create index ${sql.id(`search_postings_${key}_document`)} on ${rows} (document_seq)`.execute(db);
    await sql`
      insert into ${rows} (row_seq, document_seq, tf, length, granularity, term)
      select x.r, x.d, x.t, x.l, b.granularity, b.term from ${old} b cross join lateral unnest(b.row_seqs, b.document_seqs, b.tfs, b.lengths) as x(r, d, t, l)`.execute(db);
    await sql`drop table ${old}`.execute(db);
  }
  await sql`drop table search_document_blocks`.execute(db);
  await sql`drop sequence search_blocks`.execute(db);
}

/**
 * A collection's postings table renamed out of the way (its primary key and its `index` too,
 * whose names the new table takes), as search_postings_<key>_<suffix>.
 */
async function renamed(db: Kysely<unknown>, key: number, suffix: string, index: string): Promise<RawBuilder<unknown>> {
  const name = `search_postings_${key}`;
  await sql`alter table ${sql.table(name)} rename to ${sql.id(`${name}_${suffix}`)}`.execute(db);
  await sql`alter table ${sql.table(`${name}_${suffix}`)} rename constraint ${sql.id(`${name}_pkey`)} to ${sql.id(`${name}_${suffix}_pkey`)}`.execute(db);
  await sql`alter index ${sql.id(`${name}_${index}`)} rename to ${sql.id(`${name}_${suffix}_${index}`)}`.execute(db);
  return sql.table(`${name}_${suffix}`);
}

/** The keys of the collections that have a postings table. */
export async function postingsKeys(db: Kysely<unknown>): Promise<number[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname ~ '^search_postings_[0-9]+$'`.execute(db);
  return rows.map(({ name }) => Number(name.slice('search_postings_'.length)));
}

/** A collection's postings table in blocks (engine/search/postgres.ts says how a search reads it). */
async function createBlocksTable(db: Kysely<unknown>, collectionKey: number): Promise<void> {
  const table = sql.table(`search_postings_${collectionKey}`);
  await sql`
    create table if not exists ${table} (
      block bigint not null,
      granularity smallint not null,
      term text collate "C" not null,
      row_seqs bigint[] not null,
      document_seqs bigint[] not null,
      tfs integer[] not null,
      lengths integer[] not null,
      primary key (granularity, term, block)
    )`.execute(db);
  await sql`create index if not exists ${sql.id(`search_postings_${collectionKey}_block`)} on ${table} (block)`.execute(db);
}

/** The documents' deletion trigger (migration 019's), deleting their postings with `remove`, then running `after`. */
async function removedTrigger(db: Kysely<unknown>, remove: RawBuilder<unknown>, after: RawBuilder<unknown> = sql``): Promise<void> {
  await sql`
    create or replace function search_documents_removed() returns trigger language plpgsql as $$
    declare
      collection_key bigint;
      seqs bigint[];
    begin
      delete from search_rows where document_seq in (select seq from removed);
      for collection_key, seqs in
        select k.key, array_agg(r.seq) from removed r join search_collections k on k.collection_id = r.collection_id group by k.key
      loop
        -- None when nothing of the collection was indexed; gone with a collection deleted first.
        if to_regclass('search_postings_' || collection_key) is not null then
          ${remove}
        end if;
      end loop;
      ${after}
      return null;
    end $$`.execute(db);
}
