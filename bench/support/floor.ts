import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { chunkPages } from '../../apps/server/src/engine/ingest/chunker.ts';
import { floorAnalyzer } from './analyzer.ts';
import type { BenchDocument } from './corpus.ts';

/**
 * The floor: FTS5 in this process on a file holding only the measured collection's rows (no
 * collection token, nothing else), with Sift's own analyzer, table declaration and chunker, one
 * table per query kind as Sift's index has. What a search engine cannot beat on this machine.
 */
export const FLOOR_TABLES = ['documents', 'pages', 'coarse', 'fine'] as const;
export type FloorTable = (typeof FLOOR_TABLES)[number];

/** The floor's query: the k best rowids, k a literal as in Sift's searches (FTS5 plans knowing it). */
export const floorQuerySql = (table: string, k: number): string => `select rowid, rank from ${table} where ${table} match ? order by rank limit ${Number(k)}`;

export interface Floor {
  path: string;
  megabytes: number;
  /** Seconds FTS5 took to index each table (one transaction each, rows in rowid order). */
  indexSeconds: Record<FloorTable, number>;
  /** The k best rowids of a query, the statement prepared once per table and k. */
  query(table: FloorTable, query: string, k: number): unknown[];
  close(): void;
}

export function buildFloor(documents: BenchDocument[], dir: string, name = 'floor'): Floor {
  const path = join(dir, `${name}.db`);
  rmSync(path, { force: true });
  const rows: Record<FloorTable, string[]> = { documents: [], pages: [], coarse: [], fine: [] };
  for (const document of documents) {
    const chunked = chunkPages(document.pages);
    rows.documents.push(chunked.text);
    for (const page of chunked.pages) rows.pages.push(page.content);
    for (const snippet of chunked.coarse) rows.coarse.push(snippet.content);
    for (const snippet of chunked.fine) rows.fine.push(snippet.content);
  }
  const connection = new SQLite(path);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('cache_size = -65536');
  const indexSeconds = {} as Record<FloorTable, number>;
  for (const table of FLOOR_TABLES) {
    connection.exec(floorAnalyzer.declaration(table));
    const insert = connection.prepare(`insert into ${table} (rowid, content) values (?, ?)`);
    // Timed from the text as chunked: the analyzer is the tokenizer (Sift analyzes in JavaScript).
    const started = performance.now();
    connection.transaction(() => rows[table].forEach((content, i) => insert.run(i + 1, floorAnalyzer.text(content))))();
    indexSeconds[table] = (performance.now() - started) / 1000;
  }
  connection.pragma('wal_checkpoint(TRUNCATE)');
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: FloorTable, k: number): SQLite.Statement => {
    const key = `${table} ${k}`;
    let prepared = statements.get(key);
    if (!prepared) {
      prepared = connection.prepare(floorQuerySql(table, k));
      statements.set(key, prepared);
    }
    return prepared;
  };
  return {
    path,
    megabytes: documents.reduce((sum, document) => sum + document.bytes, 0) / 1e6,
    indexSeconds,
    query(table, query, k) {
      const match = floorAnalyzer.match(query);
      return match === null ? [] : statement(table, k).all(match);
    },
    close: () => connection.close(),
  };
}

/**
 * The floor's throughput: `readers` worker threads, each with a read-only connection of its own,
 * run the queries round-robin for `seconds`; queries per second, all readers together.
 */
export async function floorThroughput(floorPath: string, table: FloorTable, queries: string[], k: number, readers: number, seconds: number): Promise<number> {
  const entry = new URL('./floor-reader.ts', import.meta.url).href;
  const matches = queries.map((query) => floorAnalyzer.match(query)).filter((match): match is string => match !== null);
  const counts = await Promise.all(
    Array.from({ length: readers }, (_, i) => {
      const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, {
        eval: true,
        workerData: { path: floorPath, table, matches, k, seconds, offset: i * 17 },
      });
      return new Promise<{ count: number; seconds: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    }),
  );
  return counts.reduce((sum, { count, seconds: elapsed }) => sum + count / elapsed, 0);
}
