import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A document's text is stored once (documents.text): pages and snippets keep only their offsets
 * into it (start_index, end_index, page span), and their content is sliced from the text when a
 * hit is returned (engine/search/slices.ts). Their `content` columns go, with the copy of the
 * text they held (three more copies of it: pages, coarse and fine snippets).
 * `text_astral` marks the texts whose offsets (UTF-16 units) and SQL's substr (code points) differ.
 *
 * SQLite: the search files of the earlier format (FTS5 tables holding their terms) are rebuilt
 * from the text when the server opens the database (engine/search/sqlite-file.ts), and the main
 * file is vacuumed so the columns' space goes back to the disk. PostgreSQL: its postings are kept
 * as they are (they never held text); the dropped columns' space is reused as rows are rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`alter table documents add column text_astral integer not null default 0`.execute(db);
  if (postgres) {
    await sql`update documents set text_astral = 1 where text ~ ${'[\\U00010000-\\U0010FFFF]'}`.execute(db);
  } else {
    // UTF-8 writes a character outside the Basic Multilingual Plane with a lead byte F0-F4, and
    // nothing else with one.
    const leads = sql.join(['f0', 'f1', 'f2', 'f3', 'f4'].map((byte) => sql.raw(`instr(cast(text as blob), x'${byte}') > 0`)), sql` or `);
    await sql`update documents set text_astral = 1 where text is not null and (${leads})`.execute(db);
  }
  await sql`alter table pages drop column content`.execute(db);
  await sql`alter table chunks drop column content`.execute(db);
  if (!postgres) await sql`vacuum`.execute(db);
}

/**
 * Pages and snippets get their text back, sliced from their document's (in JavaScript, where the
 * offsets count). SQLite: the search files of this format are not those of earlier versions;
 * remove the data folder's `-search` folder before starting one, which rebuilds them.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['pages', 'chunks']) {
    await sql`alter table ${sql.table(table)} add column content text not null default ''`.execute(db);
    for (let after = 0; ; ) {
      const { rows } = await sql<{ seq: number; start_index: number; end_index: number; text: string | null }>`
        select r.seq, r.start_index, r.end_index, d.text from ${sql.table(table)} r join documents d on d.id = r.document_id
        where r.seq > ${after} order by r.seq limit 500`.execute(db);
      if (rows.length === 0) break;
      for (const row of rows) {
        await sql`update ${sql.table(table)} set content = ${(row.text ?? '').slice(row.start_index, row.end_index)} where seq = ${row.seq}`.execute(db);
      }
      after = Number(rows.at(-1)!.seq);
    }
  }
  await sql`alter table documents drop column text_astral`.execute(db);
}
