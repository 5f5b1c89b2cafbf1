import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * Multi-row INSERTs for bulk writes (ingestion writes tens of thousands of snippet rows per
 * batch). Kysely builds a query value by value, which at that volume cost more than SQLite
 * running it; here Kysely compiles the statement once per table, columns and row count, and each
 * batch reuses that text with its own parameters, row by row in column order, as Kysely emits
 * them. Both dialects, since the text comes from the database's own Kysely. Every row must have
 * the first row's columns.
 */
const ROWS_PER_STATEMENT = 500;

/** Bulk INSERT statements for one database: each statement's text compiled once and kept here. */
export class BulkInserts {
  readonly #texts = new Map<string, string>();

  constructor(readonly db: Kysely<DB>) {}

  /** `rows` inserted into `table`, ROWS_PER_STATEMENT to a statement. */
  of<T extends keyof DB & string>(table: T, rows: Insertable<DB[T]>[]): CompiledQuery[] {
    if (rows.length === 0) return [];
    const columns = Object.keys(rows[0]!) as (keyof Insertable<DB[T]> & string)[];
    const queries: CompiledQuery[] = [];
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const slice = rows.slice(start, start + ROWS_PER_STATEMENT);
      const parameters: unknown[] = [];
      for (const row of slice) for (const column of columns) parameters.push(row[column]);
      queries.push(CompiledQuery.raw(this.#text(table, columns, slice.length), parameters));
    }
    return queries;
  }

  #text(table: keyof DB & string, columns: string[], rowCount: number): string {
    const key = `${table}(${columns.join(',')})x${rowCount}`;
    let text = this.#texts.get(key);
    if (!text) {
      const placeholderRow = Object.fromEntries(columns.map((column) => [column, 0]));
      const compiled = this.db.insertInto(table).values(Array.from({ length: rowCount }, () => placeholderRow) as never).compile();
      // Every value must be a parameter, in order, for the reuse above to be right.
      if (compiled.parameters.length !== rowCount * columns.length) throw new Error(`bulk insert into ${table}: unexpected statement shape`);
      text = compiled.sql;
      this.#texts.set(key, text);
    }
    return text;
  }
}
