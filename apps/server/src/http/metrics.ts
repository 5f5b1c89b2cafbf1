import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { documentsByStatus } from '../db/document-counts.ts';
import { STALL_MS } from '../db/pipelined-pool.ts';
import type { Database } from '../db/schema.ts';

/** Latency buckets in seconds: from a cached search (a millisecond) to a large upload. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * This server's Prometheus metrics (`prom-client`), in a registry of its own. Request counts and
 * latencies are this process's; queue depth and indexed totals are read from the database at
 * scrape time, so they are the installation's (the same on every server).
 */
export function createMetrics(database: Database) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sift_' });
  const registers = [registry];
  const httpRequests = new Counter({
    name: 'sift_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'sift_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers,
  });
  const searchDuration = new Histogram({
    name: 'sift_search_duration_seconds',
    help: 'Time to answer search queries, by query kind (top-documents, top-pages, top-snippets).',
    labelNames: ['kind'] as const,
    buckets: SECONDS,
    registers,
  });
  const rerankerBytes = new Counter({
    name: 'sift_reranker_bytes_total',
    help: 'Bytes admitted by the reranker (as its budget counts them).',
    registers,
  });
  documentGauges(database, registers);
  connectionGauges(database, registers);
  return { registry, httpRequests, httpDuration, searchDuration, rerankerBytes };
}

/** The documents by status, indexed, and their bytes: read from the database at scrape time. */
function documentGauges(database: Database, registers: Registry[]): void {
  // One query per scrape feeds the three document gauges: a scrape asks all three in one turn, so
  // they share the query in flight; the next scrape reads afresh.
  let scrape: Promise<Awaited<ReturnType<typeof documentsByStatus>>> | null = null;
  const byStatus = () => (scrape ??= documentsByStatus(database).finally(() => (scrape = null)));
  new Gauge({
    name: 'sift_queue_documents',
    help: 'Documents by index status (the queue: not_parsed, parsing, not_indexed, indexing).',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await byStatus()) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'sift_documents_indexed',
    help: 'Documents indexed and searchable.',
    registers,
    async collect() {
      this.set((await byStatus()).find((row) => row.status === 'indexed')?.count ?? 0);
    },
  });
  new Gauge({
    name: 'sift_indexed_bytes',
    help: 'Raw bytes of the documents indexed.',
    registers,
    async collect() {
      this.set((await byStatus()).find((row) => row.status === 'indexed')?.bytes ?? 0);
    },
  });
}

/** This process's PostgreSQL connections: the shared pool's and the searches' own. */
function connectionGauges(database: Database, registers: Registry[]): void {
  new Gauge({
    name: 'sift_db_pool_connections',
    help: 'PostgreSQL pool connections of this process: total, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = database.pool;
      if (!pool) return;
      setPoolStates(this, {}, pool);
    },
  });
  new Gauge({
    name: 'sift_search_connections',
    help: `PostgreSQL connections of the searches of this process. pool="pipelined" (searches without a filter): total, in_flight (queries sent), waiting (for a place on one), stalled (answering nothing for ${STALL_MS} ms); pool="filtered" (filtered searches, and the others while every pipelined one is stalled): total, idle, waiting.`,
    labelNames: ['pool', 'state'] as const,
    registers,
    collect() {
      const pools = database.searchPools;
      if (!pools) return;
      const pipelined = pools.pipelined.stats();
      this.set({ pool: 'pipelined', state: 'total' }, pipelined.connections);
      this.set({ pool: 'pipelined', state: 'in_flight' }, pipelined.inFlight);
      this.set({ pool: 'pipelined', state: 'waiting' }, pipelined.waiting);
      this.set({ pool: 'pipelined', state: 'stalled' }, pipelined.stalled);
      setPoolStates(this, { pool: 'filtered' }, pools.filtered);
    },
  });
  new Counter({
    name: 'sift_search_overflow_total',
    help: "Searches without a filter sent to the filtered searches' pool because every pipelined connection was stalled (PostgreSQL).",
    registers,
    collect() {
      const pools = database.searchPools;
      if (!pools) return;
      // The pool counts; the metric reports its count.
      this.reset();
      this.inc(pools.pipelined.stats().overflowed);
    },
  });
}

/** A pg pool's connections (total, idle) and the requests waiting for one, under `state`. */
function setPoolStates<Label extends string>(gauge: Gauge<Label>, labels: Partial<Record<Label, string>>, pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>): void {
  for (const [state, count] of [['total', pool.totalCount], ['idle', pool.idleCount], ['waiting', pool.waitingCount]] as const) {
    gauge.set({ ...labels, state } as Partial<Record<Label, string>>, count);
  }
}

const QUERY_ROUTE = '/v1/queries/';

/** Counts and times every answered request by its route pattern (never the raw URL: bounded labels). */
export function recordRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    const seconds = reply.elapsedTime / 1000;
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, seconds);
    if (route.startsWith(QUERY_ROUTE) && reply.statusCode === 200) metrics.searchDuration.observe({ kind: route.slice(QUERY_ROUTE.length) }, seconds);
  });
}

/** `Authorization: Bearer <token>` equals the metrics token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
