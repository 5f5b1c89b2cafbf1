import SQLite from 'better-sqlite3';
import { openReaderPool } from '../../apps/server/src/db/search/reader-pool.ts';
const db = new SQLite('/tmp/wt11/hop.db'); db.exec('create table if not exists t(x); '); db.close();
const pool = openReaderPool({ databasePath: '/tmp/wt11/hop.db', threads: 2 });
for (const gapMs of [0, 0.5, 2]) {
  const s: number[] = [];
  for (let i = 0; i < 1500; i++) {
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    const t = performance.now(); await pool.all('/tmp/wt11/hop.db', 'select 1 as one', []); s.push(performance.now() - t);
  }
  s.sort((a, b) => a - b);
  console.log('gap', gapMs, 'hop p50', s[750].toFixed(3), 'p90', s[1350].toFixed(3));
}
await pool.close();
