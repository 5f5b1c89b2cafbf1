import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { searchIndex } from '../apps/server/src/engine/search/index.ts';
import { cisiDirectory, loadCisi } from './support/cisi.ts';
import { generateCorpus } from './support/corpus.ts';
import { ingest } from './support/ingest.ts';
import { measurePaired } from './retrieval.ts';
import { type Cisi } from './support/cisi.ts';
import { dialectFromArguments, type Sift, startSift } from './support/sift.ts';
import { percentile, progress, round, sleep } from './support/stats.ts';

/**
 * The neighbour effect alone, quicker than the retrieval benchmark that also measures it
 * (`npx tsx bench/neighbour.ts [--postgres]`, SIFT_BENCH_MB of small documents, default 20): the
 * judged CISI collection on a server beside another organization's collection and on a server
 * holding only CISI, its top-documents and fine top-snippets p50 paired pass by pass
 * (retrieval.ts measurePaired). Target: beside within 10% of alone. On PostgreSQL, first the same
 * in this process on each server's database (no HTTP, whose scheduling noise on a busy machine
 * hides 10%), with the pages of the database's buffer cache each query touched: what the other
 * organization's data costs a query, whatever else the machine runs.
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
    if (dialect === 'postgres') await measureDatabase(beside, alone, cisi);
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

/** CISI's top-documents (k = 10) in this process on each server's database, query by query in turn; p50 and pages touched a query. */
async function measureDatabase(beside: Sift, alone: Sift, cisi: Cisi): Promise<void> {
  await beside.quiet();
  await alone.quiet();
  const sides = await Promise.all(
    [beside, alone].map(async (server) => {
      const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl, searchConnections: 1, searchPipelines: 1 });
      const { id } = await database.db.selectFrom('collections').select('id').where('name', '=', 'cisi').executeTakeFirstOrThrow();
      return { database, collectionId: id, times: [] as number[], pages: 0 };
    }),
  );
  /** Buffer cache pages read or hit in the schema's tables and indexes so far (statistics lag up to a second). */
  const pagesTouched = async (url: string) => {
    await sleep(1500);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `select coalesce(sum(coalesce(heap_blks_read, 0) + coalesce(heap_blks_hit, 0) + coalesce(idx_blks_read, 0) + coalesce(idx_blks_hit, 0)), 0) as n
         from pg_statio_user_tables where schemaname = current_schema()`,
      );
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  };
  const warm = 3;
  const passes = 10;
  try {
    for (let pass = 0; pass < warm + passes; pass++) {
      if (pass === warm) for (const side of sides) side.pages = -(await pagesTouched(side === sides[0] ? beside.databaseUrl! : alone.databaseUrl!));
      for (const [q, query] of cisi.queries.entries()) {
        const order = (pass + q) % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          const t = performance.now();
          await searchIndex(side.database).topDocuments({ collectionId: side.collectionId, query: query.text, k: 10, filter: null });
          if (pass >= warm) side.times.push(performance.now() - t);
        }
      }
    }
    sides[0]!.pages += await pagesTouched(beside.databaseUrl!);
    sides[1]!.pages += await pagesTouched(alone.databaseUrl!);
    const count = passes * cisi.queries.length;
    const [b, a] = sides.map((side) => ({ p50: percentile(side.times, 50), pages: side.pages / count }));
    console.log('\nCISI top-documents (k = 10) in this process on each database, query by query in turn');
    console.table([{ 'beside p50 ms': round(b!.p50, 3), 'alone p50 ms': round(a!.p50, 3), 'beside / alone': round(b!.p50 / a!.p50, 3), 'beside pages a query': round(b!.pages, 1), 'alone pages a query': round(a!.pages, 1) }]);
  } finally {
    for (const side of sides) await side.database.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await runNeighbourBench();
