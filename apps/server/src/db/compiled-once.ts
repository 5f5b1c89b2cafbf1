import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

/** Stands, in a statement compiled once, for the value of that name given at each run. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * Statements compiled once per shape (a name for everything that changes their text), then given
 * each call's values: for the few statements run thousands of times a second, whose
 * compiling (Kysely walking the nested `sql` templates) and the text's lookup in the prepared
 * statements of a connection (hashing a new string each time) cost more than their parameters.
 * `build` is given stand-ins for the values and must only interpolate them (`${values.k}`),
 * never compute with them: their parameters' places are found by compiling it once with those.
 */
export class CompiledOnce<Values extends Record<string, unknown>> {
  readonly #statements = new Map<string, { sql: string; parameters: readonly unknown[] }>();

  /** The statement of this shape with these values, compiled the first time. */
  compiled<Row, Tables>(db: Kysely<Tables>, shape: string, build: (values: Values) => RawBuilder<Row>, values: Values): CompiledQuery<Row> {
    let statement = this.#statements.get(shape);
    if (!statement) {
      const slots = Object.fromEntries(Object.keys(values).map((name) => [name, new Slot(name)])) as Values;
      statement = build(slots).compile(db);
      this.#statements.set(shape, statement);
    }
    const parameters = statement.parameters.map((parameter) => (parameter instanceof Slot ? values[parameter.name] : parameter));
    return CompiledQuery.raw(statement.sql, parameters) as CompiledQuery<Row>;
  }
}
