import { pathToFileURL } from 'node:url';
import { cisiDirectory, loadCisi } from './support/cisi.ts';
import { generateCorpus } from './support/corpus.ts';
import { ingest } from './support/ingest.ts';
import { measurePaired } from './retrieval.ts';
import { dialectFromArguments, startSift } from './support/sift.ts';
import { progress, round } from './support/stats.ts';

/**
 * The neighbour effect alone, quicker than the retrieval benchmark that also measures it
 * (`npx tsx bench/neighbour.ts [--postgres]`, SIFT_BENCH_MB of small documents, default 20): the
 * judged CISI collection on a server beside another organization's collection and on a server
 * holding only CISI, its top-documents and fine top-snippets p50 paired pass by pass
 * (retrieval.ts measurePaired). Target: beside within 10% of alone.
 */
export async function runNeighbourBench(): Promise<void> {
  const megabytes = Number(process.env.SIFT_BENCH_MB ?? 20);
  const dialect = dialectFromArguments();
  const dir = cisiDirectory();
  if (!dir) throw new Error('CISI not found (../shared/data/cisi or SIFT_BENCH_CISI)');
  const cisi = loadCisi(dir);
  const beside = await startSift({ dialect, organizations: ['Judged', 'Bench'] });
  const alone = await startSift({ dialect, organizations: ['Judged'] });
  try {
    for (const server of [beside, alone]) {
      const client = server.sdk('Judged');
      await client.collections.add({ collection_name: 'cisi' });
      await ingest(client, 'cisi', cisi.documents);
    }
    const bench = beside.sdk('Bench');
    await bench.collections.add({ collection_name: 'small' });
    progress(`ingesting ${megabytes} MB beside CISI`);
    const figures = await ingest(bench, 'small', generateCorpus('small', megabytes));
    progress(`${round(figures.megabytesPerSecond)} MB/s; measuring CISI beside it and alone, pass by pass`);
    const paired = await measurePaired(beside, alone, cisi);
    console.table(
      Object.entries(paired).map(([kind, { beside: b, alone: a }]) => ({
        kind,
        'beside p50 ms': round(b.p50, 3),
        'alone p50 ms': round(a.p50, 3),
        'beside / alone': round(b.p50 / a.p50, 3),
        'beside CPU ms': round(b.cpuMs, 3),
        'alone CPU ms': round(a.cpuMs, 3),
      })),
    );
  } finally {
    await beside.stop();
    await alone.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await runNeighbourBench();
