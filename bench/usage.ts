import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { createKeyring } from '../apps/server/src/auth/keyring.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { bootstrap } from '../apps/server/src/domain/bootstrap.ts';
import { QueryUsage } from '../apps/server/src/domain/query-usage.ts';
import {
  getDocumentUsageHistory,
  getModelsUsageCounters,
  getQueryUsageHistory,
  getRerankUsageHistory,
  getUsageCounters,
} from '../apps/server/src/domain/usage.ts';
import { random } from './random.ts';

/**
 * Usage history latency over about a million usage rows spread over 30 days, on SQLite, through
 * the domain services the /v1/usage routes call (in process: HTTP adds parsing and serialisation).
 * One organization, every minute of 30 days: 12 document rows (3 collections x 4 event types),
 * 9 query rows (3 collections x 3 query types), 4 reranker rows (2 models x explicit or not):
 * 1,080,000 rows, inserted through the same triggers that keep the hourly rollups in production.
 * Target: p50 at most 50 ms for daily (30 days), hourly (one day) and minutely (one hour) histories.
 */
export interface UsageBenchRow {
  case: string;
  runs: number;
  p50: number;
  p99: number;
}
export interface UsageBenchResult {
  rows: number;
  insertSeconds: number;
  latency: UsageBenchRow[];
}

const DAY = 86_400;
const START = Date.UTC(2026, 9, 1) / 1000; // 30 days of October 2026 (UTC)
const DAYS = 30;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timed(name: string, runs: number, call: (run: number) => Promise<unknown>): Promise<UsageBenchRow> {
  await call(0); // warm the statement cache and the page cache
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await call(run);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { case: name, runs, p50: Number(percentile(times, 50).toFixed(2)), p99: Number(percentile(times, 99).toFixed(2)) };
}

function seed(sqlitePath: string, organizationId: string): number {
  const sqlite = new SQLite(sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const document = sqlite.prepare(
    `insert into document_usage (window_start, organization_id, collection_id, collection_name, event_type, event_count,
       total_file_size_bytes, total_content_tokens, total_pages, total_ocr_pages) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const query = sqlite.prepare(
    `insert into query_usage (window_start, organization_id, collection_id, collection_name, query_type, event_count, total_query_bytes)
     values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const rerank = sqlite.prepare(
    `insert into reranker_usage (window_start, organization_id, reranker_model, explicit_call, event_count, total_request_bytes, total_reranker_tokens)
     values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const next = random(7);
  let rows = 0;
  const oneDay = sqlite.transaction((day: number) => {
    for (let minute = 0; minute < 1440; minute++) {
      const windowStart = START + day * DAY + minute * 60;
      for (const collection of ['c1', 'c2', 'c3']) {
        for (const eventType of ['added', 'deleted', 'parsed', 'indexed']) {
          const count = 1 + Math.floor(next() * 5);
          document.run(windowStart, organizationId, collection, collection, eventType, count, count * 50_000, count * 900, count * 3, eventType === 'parsed' ? count : 0);
          rows++;
        }
        for (const queryType of ['documents', 'pages', 'fine']) {
          const count = 1 + Math.floor(next() * 20);
          query.run(windowStart, organizationId, collection, collection, queryType, count, count * 40);
          rows++;
        }
      }
      for (const model of ['zerank-2', 'zerank-1-small']) {
        for (const explicit of [1, 0]) {
          const count = 1 + Math.floor(next() * 10);
          rerank.run(windowStart, organizationId, model, explicit, count, count * 4_000, count * 800);
          rows++;
        }
      }
    }
  });
  for (let day = 0; day < DAYS; day++) oneDay(day);
  sqlite.close();
  return rows;
}

export async function runUsageBench(): Promise<UsageBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-usage-bench-'));
  const database = await openDatabase({ dataDir });
  try {
    const { organizationId } = await bootstrap(database, createKeyring('bench-secret-0123456789abcdef'), {
      email: 'bench@example.com',
      name: 'Bench',
      organizationName: 'Usage bench',
    });
    const started = performance.now();
    const rows = seed(database.sqlitePath!, organizationId);
    const insertSeconds = (performance.now() - started) / 1000;
    const actor = { organizationId, queryUsage: new QueryUsage(database) };
    const next = random(11);
    const someDay = () => START + Math.floor(next() * DAYS) * DAY;
    const someHour = () => someDay() + Math.floor(next() * 24) * 3600;
    const daily = { start_time: START, end_time: START + DAYS * DAY - 1, aggregation_window: 'daily' as const };
    const hourly = () => {
      const day = someDay();
      return { start_time: day, end_time: day + DAY - 1, aggregation_window: 'hourly' as const };
    };
    const minutely = () => {
      const hour = someHour();
      return { start_time: hour, end_time: hour + 3599, aggregation_window: 'minutely' as const };
    };
    const latency = [
      await timed('documents, daily, 30 days', 30, () => getDocumentUsageHistory(database, actor, daily)),
      await timed('documents, hourly, one day', 50, () => getDocumentUsageHistory(database, actor, hourly())),
      await timed('documents, minutely, one hour', 50, () => getDocumentUsageHistory(database, actor, minutely())),
      await timed('documents, daily, 30 days, 2 of 3 collections', 30, () => getDocumentUsageHistory(database, actor, { ...daily, collection_names: ['c1', 'c3'] })),
      await timed('queries, daily, 30 days', 30, () => getQueryUsageHistory(database, actor, daily)),
      await timed('queries, hourly, one day', 50, () => getQueryUsageHistory(database, actor, hourly())),
      await timed('queries, minutely, one hour', 50, () => getQueryUsageHistory(database, actor, minutely())),
      await timed('reranker, daily, 30 days', 30, () => getRerankUsageHistory(database, actor, daily)),
      await timed('reranker, hourly, one day', 50, () => getRerankUsageHistory(database, actor, hourly())),
      await timed('reranker, minutely, one hour', 50, () => getRerankUsageHistory(database, actor, minutely())),
      await timed('counters (all time + billing cycle)', 30, () => getUsageCounters(database, actor)),
      await timed('models counters', 30, () => getModelsUsageCounters(database, actor)),
      // Days starting on a half hour (UTC+5:30 midnights): the hour around each day's edge is read
      // minute by minute, the rest from the hourly rollup.
      await timed('documents, daily, 30 days from a half hour', 30, () =>
        getDocumentUsageHistory(database, actor, { start_time: START + 1800, end_time: START + DAYS * DAY + 1799, aggregation_window: 'daily' }),
      ),
      // Hourly windows from a half hour cannot use the rollup at all: the screen asks one day of
      // them; seven days is the worst case, said plainly.
      await timed('documents, hourly, one day from a half hour (minute rows only)', 30, () => {
        const day = someDay() + 1800;
        return getDocumentUsageHistory(database, actor, { start_time: day, end_time: day + DAY - 1, aggregation_window: 'hourly' });
      }),
      await timed('documents, hourly, 7 days from a half hour (minute rows only)', 10, () =>
        getDocumentUsageHistory(database, actor, { start_time: START + 1800, end_time: START + 7 * DAY + 1799, aggregation_window: 'hourly' }),
      ),
    ];
    console.log(`\nUsage histories (SQLite, ${rows.toLocaleString('en-US')} usage rows over ${DAYS} days, inserted in ${insertSeconds.toFixed(1)} s; ms)`);
    console.table(latency);
    return { rows, insertSeconds, latency };
  } finally {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runUsageBench();
