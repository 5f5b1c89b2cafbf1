import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { Socket } from 'node:net';
import type pg from 'pg';

interface Member {
  client: pg.Client;
  /** The connection's socket, made here and handed to pg (its `stream` option), so writes can be held (holdWrites). */
  socket: Socket;
  ready: Promise<unknown>;
  /** Queries handed out on this connection and not yet released. */
  inFlight: number;
  /** Queries released so far: whether the connection moves. */
  answered: number;
  /** Answered nothing for STALL_MS with queries in flight, until it answers one. */
  stalled: boolean;
  live: boolean;
  /** Writes held until the end of this event-loop turn (holdWrites). */
  corked: boolean;
}

export interface PipelinedPoolStats {
  connections: number;
  inFlight: number;
  waiting: number;
  stalled: number;
  /** Queries sent to the overflow pool since the start, every connection being stalled. */
  overflowed: number;
}

interface Waiter {
  resolve(client: PostgresPoolClient | Promise<PostgresPoolClient>): void;
  reject(error: Error): void;
}

/**
 * Most queries in flight on one connection: enough that its backend finds the next query waiting
 * when it finishes one, few enough that a slow query holds up only these behind it. A smaller
 * limit left the backend idle between queries; none at all let the slowest searches hold up
 * every search queued behind them (`bench/fair-probe.ts --postgres`, HEAVY=1 for the slowest).
 */
export const PIPELINE_DEPTH = 32;

/**
 * A connection that answers nothing for this long while a query waits (here, or behind another on
 * it) is stalled: until it answers, callers go to the overflow pool instead. Well above what an
 * ordinary search takes, well below the slowest kind (fine snippets of the most common terms).
 */
export const STALL_MS = 20;

/**
 * A few connections shared by every caller, each in pg's pipeline mode: a query is written at
 * once, behind those still running on that connection, and each has its own Sync, so a failing
 * query fails alone. For the searches, single statements that hold no transaction: many clients
 * searching on pooled connections woke a sleeping backend for each query and the server's
 * thread paid for it in `writev`; pipelined, a backend reads its next query without sleeping.
 * Transactions cannot share a connection and never come here (postgres.ts).
 * Queries on one connection are answered in order, so a slow search would hold up every search
 * behind it, another organization's among them: at most PIPELINE_DEPTH are sent to a connection,
 * the others wait here, and while every connection has answered nothing for STALL_MS they go to
 * the overflow pool, whose connections share the database's CPU instead. Whether a connection
 * answered is looked at after the event loop has read the sockets (setImmediate): judged from
 * the time of its last answer, a busy event loop made every connection look stalled and sent
 * searches to the slower pool while ingestion kept it busy.
 * pg's Pool cannot pipeline (it checks a client out for one query), hence this; the pipelining
 * itself is pg's (its `pipeline` option), and the sockets are made here, so holding their writes
 * reaches into no field of pg's.
 */
export class PipelinedPool implements PostgresPool {
  readonly #members: (Member | undefined)[];
  readonly #open: (socket: Socket) => pg.Client;
  readonly #overflow: Pick<PostgresPool, 'connect'>;
  readonly #waiting: Waiter[] = [];
  #stallWatch = false;
  #ended = false;
  #overflowed = 0;

  /** `open` makes a client in pipeline mode on the socket it is given (`stream: () => socket`). */
  constructor(size: number, open: (socket: Socket) => pg.Client, overflow: Pick<PostgresPool, 'connect'>) {
    this.#members = new Array(Math.max(1, size)).fill(undefined);
    this.#open = open;
    this.#overflow = overflow;
  }

  /** A client for one query: on a pipelined connection, or the overflow pool's while they are stalled. */
  connect(): Promise<PostgresPoolClient> {
    if (this.#ended) return Promise.reject(new Error('The search connections are closed.'));
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#dispatch();
    });
  }

  /** Hands waiting callers, in order, a place on a connection while there is one. */
  #dispatch(): void {
    while (this.#waiting.length > 0) {
      const target = this.#target();
      if (target === null) break;
      const waiter = this.#waiting.shift()!;
      if (target === 'overflow') this.#overflowed++;
      waiter.resolve(target === 'overflow' ? this.#overflow.connect() : this.#lease(target));
    }
    if (this.#waiting.length > 0) this.#watchForStalls();
  }

  /**
   * While a query waits, here or behind another on its connection: connections with queries in
   * flight that answer none for STALL_MS are stalled.
   */
  #watchForStalls(): void {
    if (this.#stallWatch) return;
    this.#stallWatch = true;
    const members = this.#members.filter((member): member is Member => member !== undefined);
    const answered = members.map((member) => member.answered);
    setTimeout(() => {
      // After the next poll of the sockets, so answers that arrived meanwhile are counted.
      setImmediate(() => {
        this.#stallWatch = false;
        members.forEach((member, i) => {
          if (member.inFlight > 0 && member.answered === answered[i]) member.stalled = true;
        });
        this.#dispatch();
        if (this.#members.some((member) => member && member.inFlight > 1)) this.#watchForStalls();
      });
    }, STALL_MS).unref();
  }

  /**
   * The connection with the fewest queries in flight among those neither stalled nor full (a
   * dropped one replaced first); 'overflow' when every one is stalled; null when one is full.
   */
  #target(): Member | 'overflow' | null {
    let best: Member | null = null;
    let full = false;
    for (let i = 0; i < this.#members.length; i++) {
      const member = this.#members[i];
      if (!member?.live) return (this.#members[i] = this.#member());
      if (member.stalled) continue;
      if (member.inFlight >= PIPELINE_DEPTH) full = true;
      else if (!best || member.inFlight < best.inFlight) best = member;
    }
    return best ?? (full ? null : 'overflow');
  }

  /** A place on this connection, counted at once; released when its query is answered. */
  #lease(member: Member): Promise<PostgresPoolClient> {
    if (++member.inFlight > 1) this.#watchForStalls();
    this.#holdWrites(member);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      member.inFlight--;
      member.answered++;
      member.stalled = false;
      this.#dispatch();
    };
    return member.ready.then(
      () => ({ query: member.client.query.bind(member.client) as PostgresPoolClient['query'], release }),
      (error: Error) => {
        member.live = false;
        release();
        throw error;
      },
    );
  }

  /**
   * The queries of one event-loop turn leave in one write: the socket is corked at the first and
   * uncorked once the turn's callbacks have run (pg corks each query's messages on its own).
   */
  #holdWrites(member: Member): void {
    if (member.corked) return;
    member.corked = true;
    member.socket.cork();
    setImmediate(() => {
      member.corked = false;
      member.socket.uncork();
    });
  }

  /** For the metrics: open connections, queries on them, callers waiting here, stalls, overflows so far. */
  stats(): PipelinedPoolStats {
    const members = this.#members.filter((member): member is Member => member?.live === true);
    return {
      connections: members.length,
      inFlight: members.reduce((total, member) => total + member.inFlight, 0),
      waiting: this.#waiting.length,
      stalled: members.filter((member) => member.stalled).length,
      overflowed: this.#overflowed,
    };
  }

  #member(): Member {
    const socket = new Socket();
    const client = this.#open(socket);
    const member: Member = { client, socket, ready: client.connect(), inFlight: 0, answered: 0, stalled: false, live: true, corked: false };
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
    const members = this.#members.filter((member): member is Member => member !== undefined);
    this.#members.fill(undefined);
    await Promise.all(members.map((member) => member.ready.then(() => member.client.end()).catch(() => {})));
  }
}
