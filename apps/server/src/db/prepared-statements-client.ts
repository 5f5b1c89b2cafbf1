import { createHash } from 'node:crypto';
import pg from 'pg';

/** Most statements one connection keeps prepared; beyond it (many filter shapes), they are parsed each time. */
const PREPARED_PER_CONNECTION = 256;

/** Names of recent statement texts: hashing a search's text anew cost more than looking it up. */
const names = new Map<string, string>();
const NAMES_KEPT = 1024;

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `sift_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * A PostgreSQL connection that prepares each distinct statement once, under a name derived from
 * its text, and then only binds and executes it: for every pool (database.ts), whose few statement
 * shapes (a search's, an upload's, an indexing batch's) run thousands of times a second. With
 * `plan_cache_mode = force_generic_plan` (the searches' pools) a statement is planned once per
 * connection as well; planning each query anew cost about as much as running it.
 */
export class PreparedStatementsClient extends pg.Client {
  readonly #prepared = new Set<string>();
  readonly #mostParameters: number;

  /**
   * `preparedMostParameters`: statements with more parameters are parsed anew each time (the
   * shared pool's bulk writes, bulk-insert.ts, whose parse is small beside their rows and whose
   * texts vary with the remainder: kept prepared, they held megabytes of their backend's memory).
   */
  constructor(config: pg.ClientConfig & { preparedMostParameters?: number } = {}) {
    super(config);
    this.#mostParameters = config.preparedMostParameters ?? Number.POSITIVE_INFINITY;
  }

  // pg's overloads cannot be restated one by one; a text with values is the only form named here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    // Text and values, answered by a promise: how Kysely queries (a callback takes pg's own path).
    if (typeof config === 'string' && Array.isArray(values) && values.length <= this.#mostParameters && !callback) {
      const name = statementName(config);
      if (this.#prepared.has(name) || this.#prepared.size < PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        return this.#named(name, config, values);
      }
    }
    return super.query(config, values, callback);
  }

  /**
   * A named query built as pg's own Query, which pg takes as it is: a config object is copied
   * first (property descriptors and all), on the HTTP thread, for every search.
   */
  #named(name: string, text: string, values: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const query = new pg.Query(text, values, (error, result) => (error ? reject(error) : resolve(result)));
      (query as unknown as { name: string }).name = name;
      super.query(query);
    });
  }
}
