import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { bootstrap } from '../../apps/server/src/domain/bootstrap.ts';
import { buildApp } from '../../apps/server/src/http/app.ts';
import { createAppContext } from '../../apps/server/src/http/context.ts';
import { startIngestWorkers } from '../../apps/server/src/ingest/worker.ts';
import { searchIndex } from '../../apps/server/src/db/search/index.ts';
import { topSnippets } from '../../apps/server/src/domain/search.ts';
import { requireCollection } from '../../apps/server/src/domain/collections.ts';
import { generateCorpus, generateQueries } from '../support/corpus.ts';
import { buildFloor } from '../support/floor.ts';

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
await workers.idle();
await workers.stop();
const floor = buildFloor(docs, dataDir, 'floor');
const queries = generateQueries(300);
const collection = await requireCollection(database.db, organizationId, 'c');
await app.listen({ port: 8733, host: '127.0.0.1' });
const http = await import('node:http');
const agent = new http.Agent({ keepAlive: true });
const post = (path: string, body: object) => new Promise<void>((resolve, reject) => { const payload = JSON.stringify(body); const r = http.request(`http://127.0.0.1:8733${path}`, { method: 'POST', agent, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => { res.resume(); res.on('end', () => resolve()); }); r.on('error', reject); r.end(payload); });
const actor = { organizationId, permission: 'all' as const, files: context.files, fileUrl: async (id: string) => `http://x/v1/documents/get-document?token=${id}`, pageImageUrl: async () => '', rerankLimiter: null as never };
const { openReaderPool } = await import('../../apps/server/src/db/search/reader-pool.ts');
const { ftsMatch, searchFilePath } = await import('../../apps/server/src/db/search/sqlite-file.ts');
const { queryTermCounts } = await import('../../apps/server/src/db/search/analyzer.ts');
const pool = openReaderPool({ databasePath: database.sqlitePath!, threads: 2 });
const file = searchFilePath(database.sqlitePath!, collection.collectionId);
const del = `and rowid not in (select row_id from search_deletions where collection_id = '${collection.collectionId}' and fts_table = 'coarse')`;
const joinContent = `select d.id, d.path, d.metadata, c.start_index, c.content, -t.rank as weight from (select rowid, rank from search.fts_coarse where fts_coarse match ? ${del} order by rank limit 57) t join chunks c on c.seq = t.rowid join documents d on d.id = c.document_id order by t.rank`;
const layers: Record<string, (q: string) => Promise<unknown> | unknown> = {
  floor: (q) => floor.query('coarse', q, 25),
  pool: (q) => pool.all(file, joinContent, [ftsMatch(queryTermCounts(q))]),
  index: (q) => searchIndex(database).topSnippets({ collectionId: collection.collectionId, query: q, k: 25, filter: null, granularity: 'coarse' }),
  domain: (q) => topSnippets(database, actor, { collection_name: 'c', query: q, k: 25, precise_responses: false, include_document_metadata: false, reranker: null, filter: null, latency_mode: 'low' } as never),
  inject: (q) => call('/v1/queries/top-snippets', { collection_name: 'c', query: q, k: 25 }),
  http: (q) => post('/v1/queries/top-snippets', { collection_name: 'c', query: q, k: 25 }),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(layers).map((k) => [k, []]));
for (let pass = 0; pass < 2; pass++) for (const q of queries) for (const [name, run] of Object.entries(layers)) { const t = performance.now(); await run(q); if (pass) samples[name]!.push(performance.now() - t); }
if (process.env.PROFILE_INJECT) {
  const from = Number(process.hrtime.bigint() / 1000n);
  for (let i = 0; i < 3; i++) for (const q of queries) await call('/v1/queries/top-snippets', { collection_name: 'c', query: q, k: 25 });
  const to = Number(process.hrtime.bigint() / 1000n);
  const { writeFileSync } = await import('node:fs');
  writeFileSync('/tmp/wt11/window.json', JSON.stringify({ from, to, requests: queries.length * 3 }));
}
for (const [name, s] of Object.entries(samples)) { s.sort((a, b) => a - b); console.log(name.padEnd(8), 'p50', s[s.length >> 1]!.toFixed(3)); }
await app.close(); floor.close(); await database.destroy(); process.exit(0);
