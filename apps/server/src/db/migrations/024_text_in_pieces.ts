import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { textPieces } from '../../engine/search/slices.ts';

/**
 * A document's text moves from `documents.text` into pieces (`document_pieces`, slices.ts), so a
 * page or snippet hit reads only the pieces it overlaps: sliced from the whole text, each snippet
 * of a large document read all of it (PostgreSQL detoasted it, SQLite read every overflow page).
 * The text is still stored once. SQLite's main file is vacuumed so the column's space goes back
 * to the disk; PostgreSQL's goes to vacuum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // PostgreSQL runs each migration in a transaction; SQLite's migrator does not, and a server
  // stopped halfway must find the texts where they were.
  if (postgres) await moveTexts(db, postgres);
  else {
    await db.transaction().execute((trx) => moveTexts(trx, postgres));
    await sql`vacuum`.execute(db);
  }
}

async function moveTexts(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  await sql`create table document_pieces (
    document_seq ${postgres ? sql`bigint` : sql`integer`} not null references documents (seq) on delete cascade,
    start_index integer not null,
    text text not null,
    primary key (document_seq, start_index))`.execute(db);
  // A few documents at a time: one may hold tens of MB of text.
  for (let after = 0; ; ) {
    const { rows } = await sql<{ seq: number; text: string }>`
      select seq, text from documents where seq > ${after} and text is not null order by seq limit 16`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) await insertPieces(db, Number(row.seq), row.text);
    // PostgreSQL keeps a dropped column's values until their rows are written again: emptied here,
    // the old copies are dead rows that vacuum reclaims, not a second copy of every text. (SQLite
    // rewrites the table when it drops the column.)
    const seqs = sql.join(rows.map((row) => Number(row.seq)));
    if (postgres) await sql`update documents set text = null where seq in (${seqs})`.execute(db);
    after = Number(rows.at(-1)!.seq);
  }
  await sql`alter table documents drop column text`.execute(db);
}

/** A text's pieces, a few hundred a statement (SQLite allows 32,766 parameters). */
async function insertPieces(db: Kysely<unknown>, seq: number, text: string): Promise<void> {
  const pieces = textPieces(text);
  for (let start = 0; start < pieces.length; start += 256) {
    const values = pieces.slice(start, start + 256).map((piece) => sql`(${seq}, ${piece.start_index}, ${piece.text})`);
    await sql`insert into document_pieces (document_seq, start_index, text) values ${sql.join(values)}`.execute(db);
  }
}

/** The text back in `documents.text`, joined from its pieces. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table documents add column text text`.execute(db);
  await sql`update documents set text = (select string_agg(x.text, '' order by x.start_index) from document_pieces x where x.document_seq = documents.seq)`.execute(db);
  await sql`drop table document_pieces`.execute(db);
}
