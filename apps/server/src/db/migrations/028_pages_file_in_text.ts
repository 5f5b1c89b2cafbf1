import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { wholeTextExpression } from '../../engine/search/slices.ts';

/**
 * A text-pages upload's raw file (its pages as JSON) is made again from its stored pages, as a
 * plain text upload's is from its text (migration 022), so it is no longer kept once indexed:
 * `documents.file_in_text` = 2. Here the indexed documents whose pages make their file are
 * marked, and the copies in `blobs` no other document needs are deleted (SQLite reuses their
 * pages). Files in a folder or a bucket go when their documents do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // PostgreSQL runs each migration in a transaction; SQLite's migrator does not.
  if (postgres) await markPagesFiles(db);
  else await db.transaction().execute((trx) => markPagesFiles(trx));
}

async function markPagesFiles(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await pagesDocuments(db, sql`file_in_text = 0 and index_status = 'indexed' and source_type in ('text-pages', 'text-pages-unordered')`, after);
    if (rows.length === 0) break;
    const same: number[] = [];
    for (const row of rows) {
      if (sha256(await pagesFile(db, row)) === row.file_hash) same.push(row.seq);
    }
    if (same.length > 0) await sql`update documents set file_in_text = 2 where seq in (${sql.join(same)})`.execute(db);
    after = rows.at(-1)!.seq;
  }
  await sql`delete from blobs where not exists (select 1 from documents d where d.file_hash = blobs.hash and d.file_in_text = 0)`.execute(db);
}

/** Every such raw file kept again, written back into `blobs` from its pages. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await pagesDocuments(db, sql`file_in_text = 2`, after);
    if (rows.length === 0) return;
    for (const row of rows) {
      const bytes = await pagesFile(db, row);
      await sql`insert into blobs (hash, bytes, size, created_at) values (${row.file_hash}, ${bytes}, ${bytes.length}, ${new Date().toISOString()})
        on conflict (hash) do nothing`.execute(db);
    }
    await sql`update documents set file_in_text = 0 where seq in (${sql.join(rows.map((row) => row.seq))})`.execute(db);
    after = rows.at(-1)!.seq;
  }
}

interface PagesDocument {
  seq: number;
  id: string;
  file_hash: string;
  text: string | null;
}

/** A few documents at a time, with their text: one may hold tens of MB. */
async function pagesDocuments(db: Kysely<unknown>, where: ReturnType<typeof sql>, after: number): Promise<PagesDocument[]> {
  const { rows } = await sql<PagesDocument>`select seq, id, file_hash, ${sql.raw(wholeTextExpression('d'))} as text
    from documents d where seq > ${after} and ${where} order by seq limit 16`.execute(db);
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/** The JSON of a document's pages, sliced from its text as the engine stores them (ingest/document-rows.ts). */
async function pagesFile(db: Kysely<unknown>, document: PagesDocument): Promise<Buffer> {
  const text = document.text ?? '';
  const { rows } = await sql<{ start_index: number; end_index: number }>`select start_index, end_index from pages where document_id = ${document.id} order by page_index`.execute(db);
  return Buffer.from(JSON.stringify(rows.map((row) => text.slice(row.start_index, row.end_index))), 'utf8');
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
