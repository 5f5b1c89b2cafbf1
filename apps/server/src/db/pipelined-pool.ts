import type pg from 'pg';

/** What Kysely's PostgresDialect asks of a pool: a client to query, released after. */
interface PoolClient {
  query: pg.Client['query'];
  release(): void;
}

interface Member {
  client: pg.Client;
  ready: Promise<unknown>;
  facade: PoolClient;
  inFlight: number;
  live: boolean;
}

/**
 * A few connections shared by every caller, each in pg's pipeline mode: a query is written at
 * once, behind those still running on that connection, and each has its own Sync, so a failing
 * query fails alone. For the searches, single statements that hold no transaction: 50 clients
 * searching on eight pooled connections woke a sleeping backend for each query and the server's
 * thread paid for it in `writev`; pipelined, a backend reads its next query without sleeping.
 * Transactions cannot share a connection and never come here (postgres.ts).
 * pg's Pool cannot pipeline (it checks a client out for one query), hence this.
 */
export class PipelinedPool {
  readonly #members: (Member | undefined)[];
  readonly #open: () => pg.Client;
  #ended = false;

  constructor(size: number, open: () => pg.Client) {
    this.#members = new Array(Math.max(1, size)).fill(undefined);
    this.#open = open;
  }

  /** The connection with the fewest queries in flight, opened (or replaced) when needed. */
  async connect(): Promise<PoolClient> {
    if (this.#ended) throw new Error('The search connections are closed.');
    let chosen = 0;
    for (let i = 0; i < this.#members.length; i++) {
      const member = this.#members[i];
      if (!member?.live) {
        chosen = i;
        break;
      }
      if (member.inFlight < this.#members[chosen]!.inFlight) chosen = i;
    }
    let member = this.#members[chosen];
    if (!member?.live) {
      member = this.#member();
      this.#members[chosen] = member;
    }
    try {
      await member.ready;
    } catch (error) {
      member.live = false;
      throw error;
    }
    return member.facade;
  }

  #member(): Member {
    const client = this.#open();
    const member: Member = { client, ready: client.connect(), facade: undefined as unknown as PoolClient, inFlight: 0, live: true };
    // A connection the database dropped is replaced by the next caller; the queries on it fail.
    const lost = () => {
      member.live = false;
    };
    client.on('error', lost);
    client.on('end', lost);
    const query = (...args: unknown[]) => {
      member.inFlight++;
      const result = (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      return result.finally(() => member.inFlight--);
    };
    member.facade = { query: query as unknown as pg.Client['query'], release: () => {} };
    return member;
  }

  async end(): Promise<void> {
    this.#ended = true;
    const members = this.#members.filter((member): member is Member => member !== undefined);
    this.#members.fill(undefined);
    await Promise.all(members.map((member) => member.ready.then(() => member.client.end()).catch(() => {})));
  }
}
