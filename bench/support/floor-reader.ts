import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** One reader of the floor (see floor.ts): its own read-only connection, queries back to back. */
const { path, table, matches, k, seconds, offset } = workerData as { path: string; table: string; matches: string[]; k: number; seconds: number; offset: number };
const connection = new SQLite(path, { readonly: true });
// k as a literal, as Sift's searches have it: FTS5 plans with the limit known (a few us a query faster).
const statement = connection.prepare(`select rowid, rank from ${table} where ${table} match ? order by rank limit ${Number(k)}`);
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
