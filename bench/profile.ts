import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CorpusShape, generateCorpus, SHAPES } from './support/corpus.ts';
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
 */
export async function runProfileBench(): Promise<void> {
  const dialect = dialectFromArguments();
  const shape: CorpusShape = process.argv.includes('--large') ? 'large' : 'small';
  const megabytes = Number(process.env.SIFT_BENCH_MB ?? 20);
  const dir = mkdtempSync(join(tmpdir(), 'sift-profile-'));
  const documents = generateCorpus(shape, megabytes);
  const sift = await startSift({ dialect, organizations: ['Profile'], nodeOptions: ['--cpu-prof', '--cpu-prof-dir', dir] });
  let figures;
  try {
    const client = sift.sdk('Profile');
    await client.collections.add({ collection_name: 'profile' });
    progress(`profiling: ingesting ${documents.length} documents`);
    figures = await ingest(client, 'profile', documents);
  } finally {
    await sift.stop();
  }
  console.log(`\nIngestion profile on ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${SHAPES[shape]}, ${round(figures.megabytes)} MB`);
  banner();
  console.log(
    `${figures.documents} documents: uploads done in ${round(figures.uploadSeconds)} s, all indexed in ${round(figures.seconds)} s (${round(figures.megabytesPerSecond)} MB/s, ${round(figures.documentsPerSecond, 0)} documents/s); profiles in ${dir}`,
  );
  for (const file of profilesIn(dir)) {
    const summary = summariseProfile(file, 15);
    const busy = summary.totalMs - summary.idleMs;
    console.log(`\n${basename(file)}: ${round(summary.totalMs / 1000, 1)} s profiled, ${round(busy / 1000, 1)} s busy (${round((busy / summary.totalMs) * 100, 0)}%)`);
    const share = (ms: number) => `${round((ms / busy) * 100, 1)}%`;
    console.table(summary.byPlace.map((row) => ({ 'self time by place': row.place, ms: round(row.ms, 0), 'of busy': share(row.ms) })));
    console.table(summary.byFunction.map((row) => ({ 'self time by function': row.name, ms: round(row.ms, 0), 'of busy': share(row.ms) })));
    console.table(summary.inclusive.map((row) => ({ "Sift's functions, inclusive": row.name, ms: round(row.ms, 0), 'of busy': share(row.ms) })));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runProfileBench();
