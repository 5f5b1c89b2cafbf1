import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

type Pieces = { start_index: number; text: string }[];

/**
 * The documents that `chosen` picks (a condition on `d`, a documents alias) cut again by `cut` into
 * new pieces, in place of those they had (migrations 031 and 032). A few documents at a time, each
 * batch in its own transaction on SQLite (whose migrator runs none): a server stopped halfway finds
 * every text whole, and the next start goes on from where it stopped.
 */
export async function cutPiecesAgain(db: Kysely<unknown>, chosen: RawBuilder<unknown>, cut: (text: string) => Pieces): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (let after = 0; ; ) {
    const { rows } = await sql<{ seq: number }>`select d.seq from documents d where d.seq > ${after} and (${chosen}) order by d.seq limit 16`.execute(db);
    if (rows.length === 0) break;
    // One text in memory at a time: a document may hold tens of MB.
    const replace = async (trx: Kysely<unknown>) => {
      for (const { seq } of rows) await cutDocument(trx, Number(seq), cut);
    };
    if (postgres) await replace(db);
    else await db.transaction().execute(replace);
    after = Number(rows.at(-1)!.seq);
  }
}

/** A document's text in its new pieces, a few hundred a statement (SQLite allows 32,766 parameters). */
async function cutDocument(db: Kysely<unknown>, seq: number, cut: (text: string) => Pieces): Promise<void> {
  const { rows } = await sql<{ text: string | null }>`select string_agg(x.text, '' order by x.start_index) as text from document_pieces x where x.document_seq = ${seq}`.execute(db);
  const text = rows[0]?.text;
  if (text === null || text === undefined) return;
  const pieces = cut(text);
  await sql`delete from document_pieces where document_seq = ${seq}`.execute(db);
  for (let start = 0; start < pieces.length; start += 256) {
    const values = pieces.slice(start, start + 256).map((piece) => sql`(${seq}, ${piece.start_index}, ${piece.text})`);
    await sql`insert into document_pieces (document_seq, start_index, text) values ${sql.join(values)}`.execute(db);
  }
}
