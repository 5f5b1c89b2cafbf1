import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { postingsKeys } from './025_postings_in_blocks.ts';

/**
 * PostgreSQL: `search_rows` holds a document's rows of each granularity counted (how many, and
 * their tokens) instead of a row per page and snippet with its length: the lengths are in the
 * postings (migration 025), and the table was a large part of the database, a collection id in
 * every row. Its triggers still append the statistics' deltas (search_stats), now sums of counts.
 * SQLite: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_rows rename to search_rows_026`.execute(db);
  await sql`alter table search_rows_026 rename constraint search_rows_pkey to search_rows_026_pkey`.execute(db);
  await sql`
    create table search_rows (
      document_seq bigint not null,
      granularity text not null,
      collection_id text not null,
      rows integer not null,
      tokens bigint not null,
      primary key (document_seq, granularity))`.execute(db);
  await sql`
    insert into search_rows (document_seq, granularity, collection_id, rows, tokens)
    select document_seq, granularity, min(collection_id), count(*), sum(length) from search_rows_026 group by document_seq, granularity`.execute(db);
  // Its triggers go with it; the statistics stay as they are.
  await sql`drop table search_rows_026`.execute(db);
  await statsTriggers(db, sql`sum(rows)`, sql`sum(tokens)`);
}

/** Back to a row per page and snippet, each one's length read from its postings (0 with none). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_rows rename to search_rows_027`.execute(db);
  await sql`alter table search_rows_027 rename constraint search_rows_pkey to search_rows_027_pkey`.execute(db);
  await sql`
    create table search_rows (
      collection_id text not null, granularity text not null, row_seq bigint not null, length integer not null, document_seq bigint not null,
      primary key (granularity, row_seq))`.execute(db);
  await sql`create index search_rows_document on search_rows (document_seq)`.execute(db);
  await sql`create table search_lengths_027 (granularity smallint, row_seq bigint, length integer, primary key (granularity, row_seq))`.execute(db);
  for (const key of await postingsKeys(db)) {
    await sql`
      insert into search_lengths_027 select distinct p.granularity, x.r, x.l
      from ${sql.table(`search_postings_${key}`)} p cross join lateral unnest(p.row_seqs, p.lengths) as x(r, l) on conflict do nothing`.execute(db);
  }
  await sql`
    insert into search_rows (collection_id, granularity, row_seq, length, document_seq)
    select r.collection_id, r.granularity, x.seq, coalesce(l.length, 0), r.document_seq
    from search_rows_027 r
    cross join lateral (
      select r.document_seq as seq, 0 as code where r.granularity = 'documents'
      union all select p.seq, 1 from pages p join documents d on d.id = p.document_id where r.granularity = 'pages' and d.seq = r.document_seq
      union all select c.seq, case c.granularity when 'coarse' then 2 else 3 end from chunks c where r.granularity in ('coarse', 'fine') and c.document_seq = r.document_seq and c.granularity = r.granularity
    ) x
    left join search_lengths_027 l on l.granularity = x.code and l.row_seq = x.seq`.execute(db);
  await sql`drop table search_rows_027`.execute(db);
  await sql`drop table search_lengths_027`.execute(db);
  await statsTriggers(db, sql`count(*)`, sql`sum(length)`);
}

/** search_rows' triggers appending statistics deltas (migration 007): `rows` and `tokens` of the rows added or removed. */
async function statsTriggers(db: Kysely<unknown>, rows: ReturnType<typeof sql>, tokens: ReturnType<typeof sql>): Promise<void> {
  await sql`
    create or replace function search_rows_added() returns trigger language plpgsql as $$ begin
      insert into search_stats (collection_id, granularity, rows, tokens)
      select collection_id, granularity, ${rows}, ${tokens} from added group by collection_id, granularity;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function search_rows_removed() returns trigger language plpgsql as $$ begin
      insert into search_stats (collection_id, granularity, rows, tokens)
      select collection_id, granularity, -${rows}, -${tokens} from removed group by collection_id, granularity;
      return null;
    end $$`.execute(db);
  await sql`create trigger search_rows_added after insert on search_rows referencing new table as added for each statement execute function search_rows_added()`.execute(db);
  await sql`create trigger search_rows_removed after delete on search_rows referencing old table as removed for each statement execute function search_rows_removed()`.execute(db);
}
