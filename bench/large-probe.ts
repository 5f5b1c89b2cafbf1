/**
 * `N=8 npx tsx bench/large-probe.ts [--postgres]`: N concurrent uploads of SIZE bytes of text
 * (default 60 MB) into a fresh server, until every one is final; prints peak server RSS, the
 * largest write-ahead logs and how long the server took to stop after SIGTERM.
 */
import { textGenerator } from './support/corpus.ts';
import { startSift } from './support/sift.ts';
import { dialectFromArguments, processRssMb } from './support/sift.ts';
import { progress, sleep } from './support/stats.ts';
const N = Number(process.env.N ?? 1);
const sift = await startSift({ dialect: dialectFromArguments(), organizations: ['Load'], env: { LOG_LEVEL: 'warn', ...(process.env.SIFT_EXTRA ? JSON.parse(process.env.SIFT_EXTRA) : {}) } });
const client = sift.sdk('Load');
await client.collections.add({ collection_name: 'large' });
const generate = textGenerator(41);
const size = Number(process.env.SIZE ?? 60_000_000);
const pool = generate.text(size + N * 100_000);
const t0 = performance.now();
const tick = setInterval(() => progress(`rss now ${processRssMb(sift.process.pid!).toFixed(0)} peak ${sift.monitor.peakRssMb.toFixed(0)} MB wal ${JSON.stringify(sift.monitor.peakWalMb)}`), 5000);
await Promise.all(Array.from({ length: N }, (_, i) => client.documents.add({ collection_name: 'large', path: `l${i}.txt`, content: { type: 'text', text: pool.slice(i * 100_000, i * 100_000 + size) }, overwrite: true })));
progress('uploaded');
let status = await client.status.getStatus({ collection_name: 'large' });
while (status.num_indexed_documents + status.num_failed_documents < N) {
  await sleep(500);
  status = await client.status.getStatus({ collection_name: 'large' });
}
clearInterval(tick);
console.log(`N=${N} indexed ${status.num_indexed_documents}, failed ${status.num_failed_documents}, done in ${((performance.now() - t0) / 1000).toFixed(1)} s, peak RSS ${sift.monitor.peakRssMb.toFixed(0)} MB, WAL ${JSON.stringify(sift.monitor.peakWalMb)}`);
const s0 = performance.now();
await sift.stop();
console.log(`stop took ${((performance.now() - s0) / 1000).toFixed(1)} s`);
