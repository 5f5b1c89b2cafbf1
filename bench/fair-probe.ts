/**
 * A probe for questions about the load benchmark's phases, faster than `npm run bench -- load`:
 * `npx tsx bench/fair-probe.ts [--postgres]`. Ingests the 10 MB corpus, 1,000 documents without
 * searches, then 50 connections of top-snippets idle (IDLE_S seconds, default 10) and while 1,000
 * documents are ingested; prints req/s, p50/p99/max, searches over 2 s, upload and total seconds
 * of ingestion and each server thread's CPU seconds during the busy phase. LVL sets the server's
 * LOG_LEVEL (default warn); ONLY_IDLE=1 stops after the idle searches (the log-level comparison);
 * PROF_DIR writes --cpu-prof profiles there; HEAVY=n adds n connections sending top-snippets of
 * the most common terms (the slowest searches) beside the 50, reported apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { generateCommonQueries, generateCorpus, generateQueries } from './support/corpus.ts';
import { ingest } from './support/ingest.ts';
import { cpuSecondsOfStat, dialectFromArguments, postgresCpuMeter, startSift } from './support/sift.ts';
import { progress } from './support/stats.ts';

const dialect = dialectFromArguments();
const profDir = process.env.PROF_DIR;
const sift = await startSift({
  dialect,
  organizations: ['Load'],
  env: { LOG_LEVEL: process.env.LVL ?? 'warn', ...(process.env.SIFT_EXTRA ? JSON.parse(process.env.SIFT_EXTRA) : {}) },
  nodeOptions: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
});
const client = sift.sdk('Load');
const key = sift.keys.Load!;
const corpus = generateCorpus('small', Number(process.env.MB ?? 10), 21, 'load');
const queries = generateQueries(500, 23);
await client.collections.add({ collection_name: 'load' });
await ingest(client, 'load', corpus);
// Searched once its index upkeep (PostgreSQL merges the small blocks each batch wrote) is done, as load.ts does.
await sift.quiet();
await client.collections.add({ collection_name: 'ingest-idle' });
await client.collections.add({ collection_name: 'ingest-busy' });
const idleBatch = generateCorpus('small', 5, 31, 'idle').slice(0, 1000);
const busyBatch = generateCorpus('small', 5, 37, 'busy').slice(0, 1000);
const idleIngest = process.env.ONLY_IDLE ? null! : await ingest(client, 'ingest-idle', idleBatch);
if (idleIngest) progress(`idle ingest ${idleIngest.documentsPerSecond.toFixed(1)} docs/s upload ${idleIngest.uploadSeconds.toFixed(1)} s total ${idleIngest.seconds.toFixed(1)} s`);

/** Top-snippets (fine, k 10) of the load's collection, the queries taken in turn. */
function searches(list: string[]): autocannon.Request[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/queries/top-snippets',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ collection_name: 'load', query: list[n++ % list.length], k: 10, precise_responses: true }) }),
    },
  ];
}

const heavyQueries = generateCommonQueries(100, 29);
/** HEAVY connections of common-term searches for `seconds`, beside the load. */
async function heavy(seconds: number): Promise<void> {
  const connections = Number(process.env.HEAVY ?? 0);
  if (connections === 0) return;
  const result = await autocannon({ url: sift.base, connections, duration: seconds, timeout: 30, requests: searches(heavyQueries) });
  console.log(`heavy: rps ${(result.requests.total / result.duration).toFixed(1)} p50 ${result.latency.p50} p99 ${result.latency.p99} non2xx ${result.non2xx}`);
}

async function load(seconds: number, until?: Promise<unknown>) {
  if (!until) void heavy(seconds);
  const slow: number[] = [];
  const t0 = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: sift.base,
        connections: 50,
        duration: seconds,
        timeout: 30,
        requests: searches(queries),
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
    instance.on('response', (_c: unknown, _s: number, _b: number, rt: number) => {
      if (rt > 2000) slow.push(Math.round((performance.now() - t0) / 100) / 10);
    });
    void until?.then(() => instance.stop());
  });
  console.log(`rps ${(result.requests.total / result.duration).toFixed(0)} p50 ${result.latency.p50} p99 ${result.latency.p99} max ${result.latency.max} >2s ${slow.length} non2xx ${result.non2xx} errors ${result.errors}`);
  if (slow.length) console.log(`slow at s: ${slow.slice(0, 60).join(' ')}`);
}
/** The CPU counts a phase starts from: the server's threads, this process, PostgreSQL's processes. */
function cpuCounts() {
  return { threads: threads(), own: process.cpuUsage(), postgres: dialect === 'postgres' ? postgresCpuMeter() : null };
}
function threadCpu(label: string, from: ReturnType<typeof cpuCounts>): void {
  const own = process.cpuUsage(from.own);
  const spent = [...threads()].map(([k, v]) => [k, v - (from.threads.get(k) ?? 0)] as const).filter(([, v]) => v > 0.3);
  const database = from.postgres ? `; PostgreSQL's processes ${from.postgres().toFixed(1)}` : '';
  console.log(`thread CPU s ${label}: ${spent.map(([k, v]) => `${k}=${v.toFixed(1)}`).join(' ')}; this process (autocannon) ${((own.user + own.system) / 1e6).toFixed(1)}${database}`);
}
if (!process.env.NO_IDLE) {
  progress('idle search');
  const counts = cpuCounts();
  const from = process.hrtime.bigint() / 1000n;
  await load(Number(process.env.IDLE_S ?? 10));
  threadCpu('idle', counts);
  // The profiles' clock: summarise only this window of them (bench/support/cpu-profile.ts).
  if (profDir) console.log(`idle window in the profiles' microseconds: ${from} ${process.hrtime.bigint() / 1000n}`);
}
function threads(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${sift.process.pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${sift.process.pid}/task/${tid}/stat`, 'utf8');
      const name = /\((.*)\)/.exec(stat)![1];
      out.set(`${tid}:${name}`, cpuSecondsOfStat(stat));
    } catch {}
  }
  return out;
}
if (process.env.ONLY_IDLE) { await sift.stop(); process.exit(0); }
const busyCounts = cpuCounts();
progress('busy');
const ingesting = ingest(client, 'ingest-busy', busyBatch);
await load(600, ingesting);
const busy = await ingesting;
threadCpu('busy', busyCounts);
console.log(`busy ingest ${busy.documentsPerSecond.toFixed(1)} docs/s uploads ${busy.uploadSeconds.toFixed(1)} s total ${busy.seconds.toFixed(1)} s = ${((busy.documentsPerSecond / idleIngest.documentsPerSecond) * 100).toFixed(0)}% of idle`);
await sift.stop();
