import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { openReaderPool } from '../apps/server/src/engine/search/reader-pool.ts';
import { annBase, annUpkeep } from '../apps/server/src/engine/search/sqlite-ann.ts';

/**
 * `npm run bench -- nearest`: SQLite's nearest rows of one granularity, in process, on a reader
 * thread, through the statements sqlite.ts sends: an exact scan of every vector against the
 * collection's hnswlib index (sqlite-ann.ts), at 20,000 and 100,000 random 384-dimension unit
 * vectors (the hardest case for a graph: no clusters). Reports the index's build time, each
 * query's p50 and p99, and recall@10 (the index path's top 10 among the exact top 10).
 */
const DIMENSIONS = 384;
const KEY = `bench:random:${DIMENSIONS}`;
const COLLECTION = '00000000-0000-4000-8000-00000000beef';
const QUERIES = 30;
const DEPTH = 100;

function unitVector(): Float32Array {
  const vector = new Float32Array(DIMENSIONS);
  let norm = 0;
  for (let i = 0; i < DIMENSIONS; i++) {
    vector[i] = Math.random() * 2 - 1;
    norm += vector[i]! ** 2;
  }
  for (let i = 0; i < DIMENSIONS; i++) vector[i]! /= Math.sqrt(norm);
  return vector;
}

const bytes = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

async function measure(rows: number): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'sift-bench-nearest-'));
  try {
    const main = join(directory, 'sift.db');
    new SQLite(main).exec('create table placeholder (x)').close();
    const file = join(directory, `${COLLECTION}.db`);
    const connection = new SQLite(file);
    connection.pragma('journal_mode = WAL');
    connection.exec('create table vectors_pages (rowid integer primary key, embedder text not null, vector blob not null)');
    const insert = connection.prepare('insert into vectors_pages (rowid, embedder, vector) values (?, ?, ?)');
    connection.transaction(() => {
      for (let rowid = 1; rowid <= rows; rowid++) insert.run(rowid, KEY, bytes(unitVector()));
    })();
    const ann = annUpkeep(connection, directory, COLLECTION, [['pages', 'vectors_pages']]);
    const started = performance.now();
    while (ann.step(KEY));
    const buildMs = performance.now() - started;
    connection.close();

    const pool = openReaderPool({ databasePath: main, threads: 1 });
    const base = annBase(directory, COLLECTION, 'pages', KEY);
    const similarity = 'vector_similarity(v.vector, ?)';
    const exact = `select v.rowid as rowid, ${similarity} as weight from search.vectors_pages v where v.embedder = ? order by weight desc limit ${DEPTH}`;
    const indexed = `select v.rowid as rowid, ${similarity} as weight from search.vectors_pages v
      where v.rowid in (select value from json_each(ann_nearest(?, ?, ${4 * DEPTH}))) and v.rowid <= ann_through(?) and v.embedder = ?
      union all select v.rowid as rowid, ${similarity} as weight from search.vectors_pages v where v.rowid > ann_through(?) and v.embedder = ?
      order by weight desc limit ${DEPTH}`;
    const times = { exact: [] as number[], indexed: [] as number[] };
    let found = 0;
    for (let i = 0; i < QUERIES + 3; i++) {
      const query = bytes(unitVector());
      let at = performance.now();
      const exactRows = await pool.all<{ rowid: number }>(file, exact, [query, KEY]);
      const exactMs = performance.now() - at;
      at = performance.now();
      const indexedRows = await pool.all<{ rowid: number }>(file, indexed, [query, base, query, base, KEY, query, base, KEY]);
      const indexedMs = performance.now() - at;
      // The first queries open the connection and load the index.
      if (i < 3) continue;
      times.exact.push(exactMs);
      times.indexed.push(indexedMs);
      const best = new Set(indexedRows.slice(0, 10).map((row) => row.rowid));
      found += exactRows.slice(0, 10).filter((row) => best.has(row.rowid)).length;
    }
    await pool.close();
    const ms = (value: number) => value.toFixed(1).padStart(7);
    console.log(
      `${String(rows).padStart(7)} vectors  build ${(buildMs / 1000).toFixed(1).padStart(5)} s  exact p50 ${ms(percentile(times.exact, 0.5))} ms p99 ${ms(percentile(times.exact, 0.99))} ms` +
        `  index p50 ${ms(percentile(times.indexed, 0.5))} ms p99 ${ms(percentile(times.indexed, 0.99))} ms  recall@10 ${(found / (10 * QUERIES)).toFixed(3)}`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function runNearestBench(sizes = [20_000, 100_000]): Promise<void> {
  console.log(`SQLite nearest ${DEPTH} rows of ${DIMENSIONS}-dimension random vectors, one reader thread, ${QUERIES} queries each`);
  for (const rows of sizes) await measure(rows);
}
