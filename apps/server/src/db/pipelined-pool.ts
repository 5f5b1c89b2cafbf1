import type pg from 'pg';

/** What Kysely's PostgresDialect asks of a pool: a client to query, released after. */
interface PoolClient {
  query: pg.Client['query'];
  release(): void;
}

interface Member {
  client: pg.Client;
  ready: Promise<unknown>;
  /** Queries handed out on this connection and not yet released. */
  inFlight: number;
  /** When the query at the head of this connection's pipeline began running (performance.now()). */
  headSince: number;
  live: boolean;
}

interface Waiter {
  resolve(client: PoolClient | Promise<PoolClient>): void;
  reject(error: Error): void;
}

/**
 * Most queries in flight on one connection: enough that its backend finds the next query waiting
 * when it finishes one, few enough that a slow query holds up only these behind it (50 clients
 * searching, 2 cores, one connection: 2,425-3,079 searches/s at 4, 2,415-3,593 at 8, 2,994-3,051
 * at 16; bench/fair-probe.ts --postgres).
 */
export const PIPELINE_DEPTH = 8;

/**
 * A connection whose running query has run this long is stalled: the queries waiting for one go
 * to the overflow pool instead. Searches take 0.2-2 ms; the slowest kind (fine snippets of the
 * most common terms) 60-130 ms at 10-20 MB.
 */
export const STALL_MS = 20;

/**
 * A few connections shared by every caller, each in pg's pipeline mode: a query is written at
 * once, behind those still running on that connection, and each has its own Sync, so a failing
 * query fails alone. For the searches, single statements that hold no transaction: 50 clients
 * searching on eight pooled connections woke a sleeping backend for each query and the server's
 * thread paid for it in `writev`; pipelined, a backend reads its next query without sleeping.
 * Transactions cannot share a connection and never come here (postgres.ts).
 * Queries on one connection are answered in order, so a slow search would hold up every search
 * behind it, another organization's among them: at most PIPELINE_DEPTH are sent to a connection,
 * the others wait here, and while every connection's running query has run past STALL_MS they go
 * to the overflow pool, whose connections share the database's CPU instead.
 * pg's Pool cannot pipeline (it checks a client out for one query), hence this.
 */
export class PipelinedPool {
  readonly #members: (Member | undefined)[];
  readonly #open: () => pg.Client;
  readonly #overflow: { connect(): Promise<PoolClient> };
  readonly #waiting: Waiter[] = [];
  #stallCheck: NodeJS.Timeout | null = null;
  #ended = false;

  constructor(size: number, open: () => pg.Client, overflow: { connect(): Promise<PoolClient> }) {
    this.#members = new Array(Math.max(1, size)).fill(undefined);
    this.#open = open;
    this.#overflow = overflow;
  }

  /** A client for one query: on a pipelined connection, or the overflow pool's while they are stalled. */
  connect(): Promise<PoolClient> {
    if (this.#ended) return Promise.reject(new Error('The search connections are closed.'));
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#dispatch();
    });
  }

  /** Hands waiting callers, in order, a place on a connection while there is one. */
  #dispatch(): void {
    while (this.#waiting.length > 0) {
      const target = this.#target(performance.now());
      if (target === null) break;
      const waiter = this.#waiting.shift()!;
      waiter.resolve(target === 'overflow' ? this.#overflow.connect() : this.#lease(target));
    }
    if (this.#waiting.length > 0 && !this.#stallCheck) {
      this.#stallCheck = setTimeout(() => {
        this.#stallCheck = null;
        this.#dispatch();
      }, STALL_MS);
      this.#stallCheck.unref();
    }
  }

  /**
   * The connection with the fewest queries in flight among those neither stalled nor full (a
   * dropped one replaced first); 'overflow' when every one is stalled; null when one is full.
   */
  #target(now: number): Member | 'overflow' | null {
    let best: Member | null = null;
    let full = false;
    for (let i = 0; i < this.#members.length; i++) {
      const member = this.#members[i];
      if (!member?.live) return (this.#members[i] = this.#member());
      if (member.inFlight > 0 && now - member.headSince > STALL_MS) continue;
      if (member.inFlight >= PIPELINE_DEPTH) full = true;
      else if (!best || member.inFlight < best.inFlight) best = member;
    }
    return best ?? (full ? null : 'overflow');
  }

  /** A place on this connection, counted at once; released when its query is answered. */
  #lease(member: Member): Promise<PoolClient> {
    if (member.inFlight++ === 0) member.headSince = performance.now();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      member.inFlight--;
      // The next query in the pipeline, if any, runs from now.
      member.headSince = performance.now();
      this.#dispatch();
    };
    return member.ready.then(
      () => ({ query: member.client.query.bind(member.client) as pg.Client['query'], release }),
      (error: Error) => {
        member.live = false;
        release();
        throw error;
      },
    );
  }

  #member(): Member {
    const client = this.#open();
    const member: Member = { client, ready: client.connect(), inFlight: 0, headSince: 0, live: true };
    // A connection the database dropped is replaced by the next caller; the queries on it fail.
    const lost = () => {
      member.live = false;
    };
    client.on('error', lost);
    client.on('end', lost);
    return member;
  }

  async end(): Promise<void> {
    this.#ended = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(new Error('The search connections are closed.'));
    if (this.#stallCheck) clearTimeout(this.#stallCheck);
    const members = this.#members.filter((member): member is Member => member !== undefined);
    this.#members.fill(undefined);
    await Promise.all(members.map((member) => member.ready.then(() => member.client.end()).catch(() => {})));
  }
}
