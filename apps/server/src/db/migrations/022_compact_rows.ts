import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Smaller rows for the text stored once (engine.md, "The two backends"):
 *
 * - A snippet (`chunks`) names its document by the document's integer seq, not its UUID text, and
 *   no longer repeats its collection (its document's): the snippets and their index by document
 *   were half of a SQLite data folder's bytes beside the text. SQLite rebuilds the table (seqs
 *   and its autoincrement counter kept, so the search files' rowids still match); its deletion
 *   trigger reads the collection from the document, and a document deletes its snippets before
 *   itself, so that trigger still finds it.
 * - `documents.file_in_text`: a raw file that is byte for byte the UTF-8 of its document's text
 *   (a plain text or Markdown upload) is not kept once indexed; its bytes are made from the text.
 *   Here the indexed documents whose text is their file are marked, and the copies in `blobs`
 *   that no other document needs are deleted. Files in a folder or a bucket go when their
 *   documents do.
 *
 * SQLite's main file is vacuumed so the space goes back to the disk.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await (postgres ? postgresSnippets(db) : sqliteSnippets(db));
  await sql`alter table documents add column file_in_text integer not null default 0`.execute(db);
  await markFilesInText(db);
  await sql`delete from blobs where not exists (select 1 from documents d where d.file_hash = blobs.hash and d.file_in_text = 0)`.execute(db);
  if (!postgres) await sql`vacuum`.execute(db);
}

async function sqliteSnippets(db: Kysely<unknown>): Promise<void> {
  const { rows: counter } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'chunks'`.execute(db);
  await sql`create table chunks_022 (
    seq integer primary key autoincrement,
    document_seq integer not null references documents (seq) on delete cascade,
    granularity text not null,
    start_index integer not null,
    end_index integer not null,
    page_start integer not null,
    page_end integer not null)`.execute(db);
  await sql`insert into chunks_022 (seq, document_seq, granularity, start_index, end_index, page_start, page_end)
    select c.seq, d.seq, c.granularity, c.start_index, c.end_index, c.page_start, c.page_end from chunks c join documents d on d.id = c.document_id order by c.seq`.execute(db);
  await sql`drop trigger if exists chunks_search_delete`.execute(db);
  await sql`drop table chunks`.execute(db);
  await sql`alter table chunks_022 rename to chunks`.execute(db);
  // Seqs of deleted snippets are never given again: a pending deletion in search_deletions names one.
  if (counter[0]) await sql`update sqlite_sequence set seq = max(seq, ${counter[0].seq}) where name = 'chunks'`.execute(db);
  await sql`create index chunks_document on chunks (document_seq)`.execute(db);
  await sqliteSnippetTriggers(db);
}

async function sqliteSnippetTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger chunks_search_delete after delete on chunks begin
    insert into search_deletions (collection_id, fts_table, row_id) select d.collection_id, old.granularity, old.seq from documents d where d.seq = old.document_seq; end`.execute(db);
  // A foreign key's cascade runs once the document is gone, where the trigger above cannot find it.
  await sql`create trigger documents_snippets_first before delete on documents begin delete from chunks where document_seq = old.seq; end`.execute(db);
}

async function postgresSnippets(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chunks add column document_seq bigint`.execute(db);
  await sql`update chunks c set document_seq = d.seq from documents d where d.id = c.document_id`.execute(db);
  await sql`alter table chunks alter column document_seq set not null`.execute(db);
  // Their index (chunks_document) and foreign key go with them.
  await sql`alter table chunks drop column document_id, drop column collection_id`.execute(db);
  await sql`alter table chunks add constraint chunks_document_seq_fkey foreign key (document_seq) references documents (seq) on delete cascade`.execute(db);
  await sql`create index chunks_document on chunks (document_seq)`.execute(db);
}

/** Marks the indexed documents whose text is their raw file, a few hundred at a time. */
async function markFilesInText(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ; ) {
    const { rows } = await sql<{ seq: number; text: string; file_hash: string; size: number }>`
      select seq, text, file_hash, size from documents where seq > ${after} and index_status = 'indexed' and text is not null order by seq limit 256`.execute(db);
    if (rows.length === 0) return;
    const same = rows.filter((row) => {
      const bytes = Buffer.from(row.text, 'utf8');
      return bytes.length === Number(row.size) && createHash('sha256').update(bytes).digest('hex') === row.file_hash;
    });
    if (same.length > 0) await sql`update documents set file_in_text = 1 where seq in (${sql.join(same.map((row) => row.seq))})`.execute(db);
    after = Number(rows.at(-1)!.seq);
  }
}

/** Snippets keyed by their document's id and collection again; every raw file kept again, written back from its text. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const { rows } = await sql<{ file_hash: string; text: string; size: number }>`select file_hash, text, size from documents where file_in_text = 1`.execute(db);
  for (const row of rows) {
    await sql`insert into blobs (hash, bytes, size, created_at) values (${row.file_hash}, ${Buffer.from(row.text, 'utf8')}, ${row.size}, ${new Date().toISOString()})
      on conflict (hash) do nothing`.execute(db);
  }
  await sql`alter table documents drop column file_in_text`.execute(db);
  if (postgres) {
    await sql`alter table chunks add column document_id text references documents (id) on delete cascade, add column collection_id text`.execute(db);
    await sql`update chunks c set document_id = d.id, collection_id = d.collection_id from documents d where d.seq = c.document_seq`.execute(db);
    await sql`alter table chunks drop column document_seq`.execute(db);
    await sql`create index chunks_document on chunks (document_id)`.execute(db);
    return;
  }
  await sql`drop trigger if exists documents_snippets_first`.execute(db);
  await sql`drop trigger if exists chunks_search_delete`.execute(db);
  await sql`create table chunks_021 (seq integer primary key autoincrement, document_id text not null references documents (id) on delete cascade,
    collection_id text not null, granularity text not null, start_index integer not null, end_index integer not null, page_start integer not null, page_end integer not null)`.execute(db);
  await sql`insert into chunks_021 select c.seq, d.id, d.collection_id, c.granularity, c.start_index, c.end_index, c.page_start, c.page_end
    from chunks c join documents d on d.seq = c.document_seq order by c.seq`.execute(db);
  await sql`drop table chunks`.execute(db);
  await sql`alter table chunks_021 rename to chunks`.execute(db);
  await sql`create index chunks_document on chunks (document_id)`.execute(db);
  await sql`create trigger chunks_search_delete after delete on chunks begin
    insert into search_deletions (collection_id, fts_table, row_id) values (old.collection_id, old.granularity, old.seq); end`.execute(db);
}
