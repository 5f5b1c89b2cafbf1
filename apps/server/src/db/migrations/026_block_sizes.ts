import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { createRemovePostings, postingsKeys } from './025_postings_in_blocks.ts';

/**
 * PostgreSQL: each postings block's granularity and number of postings, by collection
 * (`search_block_sizes`; migration 025 numbered the blocks it packed by their documents, the same in
 * several collections), so that idle upkeep can merge a collection's small blocks
 * (engine/search/postgres-blocks.ts) without reading its postings to find them. Blocks packed by
 * migration 025 hold every granularity (null) and are not merged. search_remove_postings keeps
 * the sizes, reads the documents' blocks again once it holds their locks (a merge committed
 * meanwhile moves them to a new block), and finds a block's documents through an index of its own.
 * SQLite: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create table search_block_sizes (
      collection_key bigint not null,
      block bigint not null,
      granularity smallint,
      postings bigint not null,
      primary key (collection_key, block))`.execute(db);
  await sql`create index search_document_blocks_block on search_document_blocks (block)`.execute(db);
  for (const key of await postingsKeys(db)) {
    await sql`
      insert into search_block_sizes (block, collection_key, granularity, postings)
      select block, ${key}, case when min(granularity) = max(granularity) then min(granularity) end, sum(cardinality(row_seqs))
      from ${sql.table(`search_postings_${key}`)} group by block`.execute(db);
  }
  await sql`
    create or replace function search_remove_postings(collection_key bigint, seqs bigint[]) returns void language plpgsql as $$
    declare
      blocks bigint[];
      locked bigint[];
    begin
      -- Removals and merges of the same blocks one after the other (their records locked in block
      -- order): the second must read the rows the first wrote, which a statement begun before the
      -- first committed would not see. Read again once locked, until the same: a merge moves its
      -- blocks' documents to a new one.
      loop
        select array_agg(distinct block order by block) into blocks from search_document_blocks where document_seq = any(seqs);
        -- Documents indexed for the first time hold none: nothing to read (a statement planned
        -- without the blocks in hand may scan the whole table).
        if blocks is null then return; end if;
        exit when blocks = locked;
        perform 1 from search_document_blocks where block = any(blocks) order by block, document_seq for update;
        locked := blocks;
      end loop;
      -- A block losing some of its postings is written again with the rest; one losing all, not.
      execute format($f$
        with old as (delete from %1$I p where p.block = any($2) and p.document_seqs && $1 returning p.*),
        postings as (
          select o.block, o.granularity, o.term, x.r, x.d, x.t, x.l, x.i
          from old o cross join lateral unnest(o.row_seqs, o.document_seqs, o.tfs, o.lengths) with ordinality as x(r, d, t, l, i)),
        kept as (
          insert into %1$I (block, granularity, term, row_seqs, document_seqs, tfs, lengths)
          select block, granularity, term, array_agg(r order by i), array_agg(d order by i), array_agg(t order by i), array_agg(l order by i)
          from postings where d <> all($1) group by block, granularity, term)
        update search_block_sizes s set postings = s.postings - g.removed
        from (select block, count(*) as removed from postings where d = any($1) group by block) g where s.collection_key = $3 and s.block = g.block$f$,
        'search_postings_' || collection_key) using seqs, blocks, collection_key;
      delete from search_block_sizes s where s.collection_key = search_remove_postings.collection_key and s.block = any(blocks) and s.postings <= 0;
      delete from search_document_blocks where document_seq = any(seqs);
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await createRemovePostings(db);
  await sql`drop index search_document_blocks_block`.execute(db);
  await sql`drop table search_block_sizes`.execute(db);
}
