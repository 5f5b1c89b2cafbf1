import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { PIECE_UNITS, textPieces } from '../../engine/search/slices.ts';

/** The pieces' length before this migration. */
const LONG_PIECE_UNITS = 16_384;

/**
 * Documents' texts cut again into pieces of PIECE_UNITS (slices.ts) from 16,384 units. A few
 * documents at a time, each batch in its own transaction on SQLite (whose migrator runs none): a
 * server stopped halfway finds every text whole, and the next start goes on from where it stopped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await cutAgain(db, PIECE_UNITS, sql`exists (select 1 from document_pieces x where x.document_seq = d.seq and length(x.text) > ${PIECE_UNITS + 1})`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await cutAgain(db, LONG_PIECE_UNITS, sql`(select count(*) from document_pieces x where x.document_seq = d.seq) > 1`);
}

/**
 * Each document that `outOfShape` picks (its pieces are not yet `units` long), or has astral
 * characters (a piece's length in SQL counts code points, not units), cut again into pieces of `units`.
 */
async function cutAgain(db: Kysely<unknown>, units: number, outOfShape: ReturnType<typeof sql>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (let after = 0; ; ) {
    const { rows } = await sql<{ seq: number }>`
      select d.seq from documents d where d.seq > ${after} and (d.text_astral = 1 or ${outOfShape}) order by d.seq limit 16`.execute(db);
    if (rows.length === 0) break;
    // One text in memory at a time: a document may hold tens of MB.
    const replace = async (trx: Kysely<unknown>) => {
      for (const { seq } of rows) await cutDocument(trx, Number(seq), units);
    };
    if (postgres) await replace(db);
    else await db.transaction().execute(replace);
    after = Number(rows.at(-1)!.seq);
  }
}

/** A document's text in pieces of `units` in place of those it had, a few hundred a statement (SQLite allows 32,766 parameters). */
async function cutDocument(db: Kysely<unknown>, seq: number, units: number): Promise<void> {
  const { rows } = await sql<{ text: string | null }>`select string_agg(x.text, '' order by x.start_index) as text from document_pieces x where x.document_seq = ${seq}`.execute(db);
  const text = rows[0]?.text;
  if (text === null || text === undefined) return;
  const pieces = textPieces(text, units);
  await sql`delete from document_pieces where document_seq = ${seq}`.execute(db);
  for (let start = 0; start < pieces.length; start += 256) {
    const values = pieces.slice(start, start + 256).map((piece) => sql`(${seq}, ${piece.start_index}, ${piece.text})`);
    await sql`insert into document_pieces (document_seq, start_index, text) values ${sql.join(values)}`.execute(db);
  }
}
