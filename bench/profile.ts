import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CorpusShape, generateCorpus, generateQueries, SHAPES } from './support/corpus.ts';
import { profilesIn, summariseProfile } from './support/cpu-profile.ts';
import { ingest } from './support/ingest.ts';
import { dialectFromArguments, startSift } from './support/sift.ts';
import { banner, progress, round } from './support/stats.ts';

/**
 * Where ingestion time goes (issue #11 point 5), `npm run bench -- profile [--postgres] [--large]`:
 * the server runs under `node --cpu-prof` (its HTTP thread and each ingestion thread write a
 * profile) while the SDK uploads 20 MB of small documents (or large ones), 8 in flight, until
 * every one is indexed. Prints, per thread, its busy time by place and by function; keeps the
 * .cpuprofile files (open them in Chrome DevTools or speedscope).
 *
 * With `--queries`, then the four query kinds of the retrieval benchmark (k = 25), one request at
 * a time, SIFT_BENCH_QUERIES of each (default 500); the summaries then cover only the queries'
 * time, and say what one request costs each thread.
 */
export async function runProfileBench(): Promise<void> {
  const dialect = dialectFromArguments();
  const shape: CorpusShape = process.argv.includes('--large') ? 'large' : 'small';
  const megabytes = Number(process.env.SIFT_BENCH_MB ?? 20);
  const dir = mkdtempSync(join(tmpdir(), 'sift-profile-'));
  const documents = generateCorpus(shape, megabytes);
  const sift = await startSift({ dialect, organizations: ['Profile'], nodeOptions: ['--cpu-prof', '--cpu-prof-dir', dir] });
  let figures;
  let window: { from: number; to: number } | undefined;
  let requests = 0;
  try {
    const client = sift.sdk('Profile');
    await client.collections.add({ collection_name: 'profile' });
    await sift.quiet(); // the threads' start is not ingestion
    progress(`profiling: ingesting ${documents.length} documents`);
    const ingestFrom = Number(process.hrtime.bigint() / 1000n);
    figures = await ingest(client, 'profile', documents);
    window = { from: ingestFrom, to: Number(process.hrtime.bigint() / 1000n) };
    if (process.argv.includes('--queries')) {
      const queries = generateQueries(Number(process.env.SIFT_BENCH_QUERIES ?? 500));
      const key = sift.keys.Profile!;
      const kinds = [
        { path: '/queries/top-documents', body: (query: string) => ({ collection_name: 'profile', query, k: 25 }) },
        { path: '/queries/top-pages', body: (query: string) => ({ collection_name: 'profile', query, k: 25 }) },
        { path: '/queries/top-snippets', body: (query: string) => ({ collection_name: 'profile', query, k: 25 }) },
        { path: '/queries/top-snippets', body: (query: string) => ({ collection_name: 'profile', query, k: 25, precise_responses: true }) },
      ];
      progress('profiling: warming up');
      for (const kind of kinds) for (const query of queries.slice(0, 20)) await sift.post(kind.path, kind.body(query), key);
      progress(`profiling: ${queries.length * kinds.length} queries, one at a time`);
      const from = Number(process.hrtime.bigint() / 1000n);
      const started = performance.now();
      for (const kind of kinds) for (const query of queries) await sift.post(kind.path, kind.body(query), key);
      requests = queries.length * kinds.length;
      window = { from, to: Number(process.hrtime.bigint() / 1000n) };
      console.log(`\n${requests} queries in ${round((performance.now() - started) / 1000)} s: ${round((performance.now() - started) / requests, 3)} ms each, end to end`);
    }
  } finally {
    await sift.stop();
  }
  console.log(`\n(The tables below cover the ${requests ? 'queries' : 'ingestion'} only.)`);
  console.log(`\nIngestion profile on ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${SHAPES[shape]}, ${round(figures.megabytes)} MB`);
  banner();
  console.log(
    `${figures.documents} documents: uploads done in ${round(figures.uploadSeconds)} s, all indexed in ${round(figures.seconds)} s (${round(figures.megabytesPerSecond)} MB/s, ${round(figures.documentsPerSecond, 0)} documents/s); profiles in ${dir}`,
  );
  for (const file of profilesIn(dir)) {
    const summary = summariseProfile(file, window ? 30 : 15, window);
    const busy = summary.totalMs - summary.idleMs;
    if (busy <= 0) continue;
    console.log(`\n${basename(file)}: ${round(summary.totalMs / 1000, 1)} s profiled, ${round(busy / 1000, 1)} s busy (${round((busy / summary.totalMs) * 100, 0)}%)`);
    const share = (ms: number) => `${round((ms / busy) * 100, 1)}%`;
    // Per request (queries): microseconds of this thread's time each request cost.
    const each = (ms: number) => (requests ? { 'µs per request': round((ms * 1000) / requests, 0) } : {});
    console.table(summary.byPlace.map((row) => ({ 'self time by place': row.place, ms: round(row.ms, 0), 'of busy': share(row.ms), ...each(row.ms) })));
    console.table(summary.byFunction.map((row) => ({ 'self time by function': row.name, ms: round(row.ms, 0), 'of busy': share(row.ms), ...each(row.ms) })));
    console.table(summary.inclusive.map((row) => ({ "Sift's functions, inclusive": row.name, ms: round(row.ms, 0), 'of busy': share(row.ms), ...each(row.ms) })));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runProfileBench();
