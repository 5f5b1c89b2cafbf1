import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { floorQuerySql } from './floor.ts';

/** One reader of the floor (see floor.ts): its own read-only connection, queries back to back. */
const { path, table, matches, k, seconds, offset } = workerData as { path: string; table: string; matches: string[]; k: number; seconds: number; offset: number };
const connection = new SQLite(path, { readonly: true });
const statement = connection.prepare(floorQuerySql(table, k));
for (let i = 0; i < 50; i++) statement.all(matches[i % matches.length]); // warm-up
const started = performance.now();
let count = 0;
while (performance.now() - started < seconds * 1000) {
  statement.all(matches[(offset + count) % matches.length]);
  count++;
}
const elapsed = (performance.now() - started) / 1000;
connection.close();
parentPort!.postMessage({ count, seconds: elapsed });
