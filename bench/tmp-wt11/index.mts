import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { bootstrap } from '../../apps/server/src/domain/bootstrap.ts';
import { buildApp } from '../../apps/server/src/http/app.ts';
import { createAppContext } from '../../apps/server/src/http/context.ts';
import { startIngestWorkers } from '../../apps/server/src/ingest/worker.ts';
import { openReaderPool } from '../../apps/server/src/db/search/reader-pool.ts';
import { ftsMatch, searchFilePath } from '../../apps/server/src/db/search/sqlite-file.ts';
import { queryTermCounts } from '../../apps/server/src/db/search/analyzer.ts';
import { requireCollection } from '../../apps/server/src/domain/collections.ts';
import { generateCorpus, generateQueries } from '../support/corpus.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'sift-layers-'));
const config = loadConfig({ SIFT_DATA_DIR: dataDir, SIFT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'warn' });
const database = await openDatabase(config);
const context = createAppContext(config, database);
const app = await buildApp(context);
const { apiKey, organizationId } = await bootstrap(database, context.keyring, { email: 'a@b.c', name: 'A', organizationName: 'A' });
const call = (url: string, body: object) => app.inject({ method: 'POST', url, payload: body, headers: { authorization: `Bearer ${apiKey}` } });
await call('/v1/collections/add-collection', { collection_name: 'c' });
const docs = generateCorpus('small', Number(process.env.MB ?? 5));
const workers = await startIngestWorkers({ database, files: context.files, concurrency: 1, idlePollMs: 50 });
for (const d of docs) await call('/v1/documents/add-document', { collection_name: 'c', path: d.path, content: d.content, metadata: {} });
await workers.idle(); await workers.stop();
const collection = await requireCollection(database.db, organizationId, 'c');
const file = searchFilePath(database.sqlitePath!, collection.collectionId);
const pool = openReaderPool({ databasePath: database.sqlitePath!, threads: 2 });
const local = new SQLite(database.sqlitePath!, { readonly: true }); local.prepare('attach database ? as search').run(file);
const queries = generateQueries(300);
const del = `and rowid not in (select row_id from search_deletions where collection_id = '${collection.collectionId}' and fts_table = 'coarse')`;
const shapes: Record<string, string> = {
  bare: `select rowid, rank from search.fts_coarse where fts_coarse match ? order by rank limit 57`,
  bareDel: `select rowid, rank from search.fts_coarse where fts_coarse match ? ${del} order by rank limit 57`,
  joinNoContent: `select d.id, d.path, d.metadata, c.start_index, -t.rank as weight from (select rowid, rank from search.fts_coarse where fts_coarse match ? ${del} order by rank limit 57) t join chunks c on c.seq = t.rowid join documents d on d.id = c.document_id order by t.rank`,
  joinContent: `select d.id, d.path, d.metadata, c.start_index, c.content, -t.rank as weight from (select rowid, rank from search.fts_coarse where fts_coarse match ? ${del} order by rank limit 57) t join chunks c on c.seq = t.rowid join documents d on d.id = c.document_id order by t.rank`,
};
const samples: Record<string, number[]> = {};
for (let pass = 0; pass < 2; pass++) for (const q of queries) {
  const m = ftsMatch(queryTermCounts(q));
  for (const [name, text] of Object.entries(shapes)) {
    for (const where of ['pool', 'local']) {
      const key = `${where} ${name}`; samples[key] ??= [];
      const t = performance.now();
      if (where === 'pool') await pool.all(file, text, [m]); else local.prepare(text).all(m);
      if (pass) samples[key]!.push(performance.now() - t);
    }
  }
}
for (const [name, s] of Object.entries(samples)) { s.sort((a, b) => a - b); console.log(name.padEnd(24), 'p50', s[s.length >> 1]!.toFixed(3)); }
await pool.close(); await app.close(); await database.destroy(); process.exit(0);
