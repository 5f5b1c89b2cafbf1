/**
 * Seeds usage history for the Usage screen's browser spec and screenshot: rows at explicit times
 * over the default range (today minus 29 days to today, local time) and in the current hour,
 * written against the test server's data folder the way actions write them (upserts the rollup
 * triggers see). Prints the totals it wrote as JSON.
 *
 *   SIFT_DATA_DIR=... node --import tsx e2e/seed-usage.ts <organization_id> <collection> [<collection>...]
 */
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { type DocumentRow, insertDocumentRows, insertQueryRows, insertRerankRows, type QueryRow, type RerankRow } from '../apps/server/test/usage-rows.ts';

const [organizationId, ...collections] = process.argv.slice(2);
if (!organizationId || collections.length === 0) throw new Error('usage: seed-usage.ts <organization_id> <collection>...');

const now = new Date();
const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate());
const at = (daysAgo: number, hour: number, minute = 0) =>
  Math.floor(new Date(startOfToday.getFullYear(), startOfToday.getMonth(), startOfToday.getDate() - daysAgo, hour, minute).getTime() / 1000);

const documents: DocumentRow[] = [];
const queries: QueryRow[] = [];
const reranks: RerankRow[] = [];
for (let daysAgo = 0; daysAgo < 30; daysAgo += 1) {
  for (const [slot, hour] of [9, 11, 14, 16].entries()) {
    const collection = collections[(daysAgo + slot) % collections.length]!;
    const added = 1 + ((daysAgo * 7 + slot * 3) % 5);
    const fileBytes = added * (90_000 + ((daysAgo * 13 + slot * 7) % 10) * 45_000);
    documents.push({ at: at(daysAgo, hour, 5), organizationId, collection, eventType: 'added', count: added, fileBytes });
    documents.push({ at: at(daysAgo, hour, 20), organizationId, collection, eventType: 'parsed', count: added, fileBytes, ocrPages: slot === 1 ? added * 3 : 0 });
    documents.push({ at: at(daysAgo, hour, 40), organizationId, collection, eventType: 'indexed', count: added, fileBytes });
    const asked = 3 + ((daysAgo + slot) % 9);
    queries.push({ at: at(daysAgo, hour, 45), organizationId, collection, count: asked, queryBytes: asked * (24 + ((daysAgo * 11) % 50)) });
    const reranked = 2 + ((daysAgo * 3 + slot) % 6);
    reranks.push({ at: at(daysAgo, hour, 50), organizationId, count: reranked, requestBytes: reranked * (1_500 + ((daysAgo * 5 + slot) % 7) * 600), tokens: 600 });
  }
}
// The current hour, minute by minute (so the minute view of now has bars).
const thisHour = new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours()).getTime() / 1000;
for (let minute = 0; minute < 60; minute += 6) {
  reranks.push({ at: thisHour + minute * 60, organizationId, count: 1 + (minute % 4), requestBytes: 3_000, tokens: 100 });
  queries.push({ at: thisHour + minute * 60, organizationId, collection: collections[0]!, count: 2, queryBytes: 64 });
}

const database = await openDatabase(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }));
await insertDocumentRows(database, documents);
await insertQueryRows(database, queries);
await insertRerankRows(database, reranks);
await database.destroy();

const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((total, row) => total + pick(row), 0);
const byCollection = Object.fromEntries(
  collections.map((name) => [name, { docs: sum(documents.filter((d) => d.collection === name && d.eventType === 'added'), (d) => d.count ?? 1) }]),
);
console.log(
  JSON.stringify({
    docs: sum(documents.filter((d) => d.eventType === 'added'), (d) => d.count ?? 1),
    ocr: sum(documents.filter((d) => d.eventType === 'parsed'), (d) => d.ocrPages ?? 0),
    indexed: sum(documents.filter((d) => d.eventType === 'indexed'), (d) => d.count ?? 1),
    queries: sum(queries, (q) => q.count ?? 1),
    rerank: sum(reranks, (r) => r.count ?? 1),
    byCollection,
  }),
);
