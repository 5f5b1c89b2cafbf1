import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rerankModel } from '../apps/server/src/domain/models/registry.ts';
import { type BareHttpServer, startBareHttpServer } from './support/bare-http.ts';
import { type Cisi, cisiDirectory, loadCisi } from './support/cisi.ts';
import { ndcgAt } from './support/ir-metrics.ts';
import { type CorpusShape, generateCommonQueries, generateCorpus, generateQueries, SHAPES } from './support/corpus.ts';
import { buildFloor, FLOOR_TABLES, type Floor, type FloorTable } from './support/floor.ts';
import { floorAnalyzer } from './support/analyzer.ts';
import { ingest, type IngestFigures } from './support/ingest.ts';
import { dialectFromArguments, postgresCpuMeter, type Sift, startSift } from './support/sift.ts';
import { banner, percentile, progress, round } from './support/stats.ts';

/**
 * Retrieval benchmark (issue #11), `npm run bench -- retrieval [--postgres] [--small-only] [--no-filters]`.
 * A real server process (SQLite, or PostgreSQL on a fresh schema) on a temporary data folder;
 * this process is the client. For 20 MB of small documents (2-8 KB) and 20 MB of large ones:
 *  - ingestion MB/s end to end through the official SDK (8 uploads in flight, until get-status
 *    shows every document final), against the floor's indexing MB/s of the same text;
 *  - HTTP p50/p99 of the four query kinds (k = 25), one request at a time, against the floor:
 *    the same query on FTS5 in this process, on a file holding only this collection's rows.
 * With small documents, filtered queries too: p50 of top-documents and fine top-snippets with
 * metadata filters passing 0.5%, 10%, 50% and 90% of the documents, against the same queries
 * unfiltered, with the usual queries and with queries of the most common terms (issue #11 pt 3).
 * Then the neighbour effect: the judged CISI collection of another organization, its nDCG@10
 * (BM25, and BM25's top 50 reranked by the built-in `zerank-2`) alone, beside the 20 MB collection
 * and alone again once it is deleted, and its p50 beside the neighbour against a server holding
 * only CISI, pass by pass. Every latency run starts once the server has gone quiet
 * (sift.quiet): after a burst of writes the ingestion threads merge index segments for a while,
 * work that belongs to the ingestion, not to the queries measured after it.
 */

const K = 25;
const SIFT_KINDS: { kind: string; table: FloorTable; path: string; body: (collection: string, query: string) => object; target: number }[] = [
  { kind: 'top-documents', table: 'documents', path: '/queries/top-documents', body: (c, query) => ({ collection_name: c, query, k: K }), target: 2.5 },
  { kind: 'top-pages', table: 'pages', path: '/queries/top-pages', body: (c, query) => ({ collection_name: c, query, k: K }), target: 2 },
  { kind: 'top-snippets coarse', table: 'coarse', path: '/queries/top-snippets', body: (c, query) => ({ collection_name: c, query, k: K }), target: 2 },
  { kind: 'top-snippets fine', table: 'fine', path: '/queries/top-snippets', body: (c, query) => ({ collection_name: c, query, k: K, precise_responses: true }), target: 2 },
];

interface LatencyRow {
  kind: string;
  /** Server CPU per query (all its threads), milliseconds. */
  cpuMs: number;
  p50: number;
  p99: number;
  floorP50: number;
  floorP99: number;
  ratio: number;
  /** The bare node:http server's p50 (bare-http.ts), interleaved with the two above. */
  bareP50: number;
  /** The least ratio an HTTP server could reach: a bare round trip and the floor's query, over the floor's. */
  leastRatio: number;
  target: number;
}

interface FilteredRow {
  kind: string;
  queries: string;
  filter: string;
  p50: number;
  /** The same queries unfiltered. */
  unfilteredP50: number;
}

interface ShapeResult {
  shape: CorpusShape;
  ingest: IngestFigures;
  /** Server CPU seconds (all threads) from the first upload until every document was final. */
  ingestCpuSeconds: number;
  /** PostgreSQL's processes' CPU seconds over the same time (postgresCpuMeter); null on SQLite. */
  ingestDatabaseCpuSeconds: number | null;
  floorMegabytesPerSecond: { textOnce: number; allTables: number };
  latency: LatencyRow[];
  /** Seconds waited before the latency runs for the server to go quiet (sift.quiet). */
  quietSeconds: number;
  /**
   * Bytes of the server's data once quiet (sift.storageBytes), and of the text of every document it
   * then held; `added`, the same grown since before this corpus: what the corpus alone costs.
   */
  storage: StorageFigures & { added: StorageFigures };
  /** Small documents only. */
  filtered: FilteredRow[];
}

interface StorageFigures {
  bytes: number;
  textBytes: number;
}

interface JudgedFigures {
  /** Seconds waited first for the server to go quiet (sift.quiet): a neighbour's index upkeep is its ingestion's. */
  quietSeconds: number;
  ndcg: number;
  ndcgReranked: number;
}

/** One query kind's p50 and server CPU ms a query, beside the neighbour and on a server of its own. */
interface PairedKind {
  beside: { p50: number; cpuMs: number };
  alone: { p50: number; cpuMs: number };
}
interface PairedFigures {
  documents: PairedKind;
  snippets: PairedKind;
}

export interface RetrievalBenchResult {
  dialect: string;
  shapes: ShapeResult[];
  /** Storage before the first corpus: the empty schema or data folder, and CISI's collection when there is one. */
  storageBefore: StorageFigures;
  refusedP50: number;
  /** CISI's ranking alone, beside the neighbour and alone again once it is deleted; its latency beside it, paired. */
  judged: { alone: JudgedFigures; beside: JudgedFigures | null; aloneAgain: JudgedFigures | null; paired: PairedFigures | null } | null;
}

export async function runRetrievalBench(options: { megabytes?: number; queries?: number; shapes?: CorpusShape[] } = {}): Promise<RetrievalBenchResult> {
  const megabytes = options.megabytes ?? Number(process.env.SIFT_BENCH_MB ?? 20);
  const queryCount = options.queries ?? 200;
  const shapes = options.shapes ?? (process.argv.includes('--small-only') ? ['small'] : ['small', 'large']);
  // Filtered queries of the most common terms weigh nearly every row: at 200 MB they would take hours.
  const withFilters = !process.argv.includes('--no-filters');
  const dialect = dialectFromArguments();
  const floorDir = mkdtempSync(join(tmpdir(), 'sift-floor-'));
  const queries = generateQueries(queryCount);
  const cisiDir = cisiDirectory();
  const cisi = cisiDir ? loadCisi(cisiDir) : null;

  const sift = await startSift({ dialect, organizations: ['Judged', 'Bench'] });
  // CISI on a server of its own too: its queries alternate with the main server's once the
  // neighbour is there, so both are measured in the same minutes (the machine's speed drifts).
  const aloneServer = cisi ? await startSift({ dialect, organizations: ['Judged'] }) : null;
  const bare = await startBareHttpServer();
  try {
    const bench = sift.sdk('Bench');
    let judged: RetrievalBenchResult['judged'] = null;
    if (cisi) {
      const client = sift.sdk('Judged');
      await client.collections.add({ collection_name: 'cisi' });
      progress('CISI: ingesting');
      await ingest(client, 'cisi', cisi.documents);
      const own = aloneServer!.sdk('Judged');
      await own.collections.add({ collection_name: 'cisi' });
      await ingest(own, 'cisi', cisi.documents);
      progress('CISI: measuring alone');
      judged = { alone: await measureJudged(sift, cisi), beside: null, aloneAgain: null, paired: null };
    }

    const results: ShapeResult[] = [];
    // The text the server holds: CISI's, then each shape's added.
    let textBytes = cisi ? cisi.documents.reduce((total, document) => total + document.bytes, 0) : 0;
    await sift.quiet();
    const storageBefore = { bytes: await sift.storageBytes(), textBytes };
    let storedBefore = storageBefore;
    for (const shape of shapes) {
      const documents = generateCorpus(shape, megabytes);
      await bench.collections.add({ collection_name: shape });
      // From a quiet server: not while its ingestion threads still load or the last ingestion settles.
      await sift.quiet();
      progress(`${shape}: ingesting ${documents.length} documents`);
      const cpuBefore = sift.cpuSeconds();
      const databaseCpu = sift.databaseUrl ? postgresCpuMeter() : null;
      const figures = await ingest(bench, shape, documents, { metadata: (i) => ({ group: `g${i % 10}`, shard: `s${i % 200}` }) });
      const ingestCpuSeconds = sift.cpuSeconds() - cpuBefore;
      const ingestDatabaseCpuSeconds = databaseCpu?.() ?? null;
      progress(`${shape}: ${figures.megabytesPerSecond.toFixed(2)} MB/s; building the floor`);
      if (judged && !judged.beside) {
        judged.beside = await measureJudged(sift, cisi!);
        progress('CISI: beside the neighbour and on a server of its own, pass by pass');
        judged.paired = await measurePaired(sift, aloneServer!, cisi!);
      }
      const floor = buildFloor(documents, floorDir, shape);
      progress(`${shape}: waiting for the server to go quiet, then measuring latency`);
      const quietSeconds = await sift.quiet();
      progress(`${shape}: quiet after ${round(quietSeconds, 1)} s; measuring latency`);
      textBytes += documents.reduce((total, document) => total + document.bytes, 0);
      const stored = { bytes: await sift.storageBytes(), textBytes };
      const storage = { ...stored, added: { bytes: stored.bytes - storedBefore.bytes, textBytes: stored.textBytes - storedBefore.textBytes } };
      storedBefore = stored;
      const floorSeconds = FLOOR_TABLES.reduce((sum, table) => sum + floor.indexSeconds[table], 0);
      results.push({
        shape,
        ingest: figures,
        ingestCpuSeconds,
        ingestDatabaseCpuSeconds,
        floorMegabytesPerSecond: { textOnce: floor.megabytes / floor.indexSeconds.documents, allTables: floor.megabytes / floorSeconds },
        latency: await measureLatency(sift, bare, shape, floor, queries),
        quietSeconds,
        storage,
        filtered: shape === 'small' && withFilters ? await measureFiltered(sift, shape, queries.slice(0, 100)) : [],
      });
      floor.close();
    }

    if (judged) {
      // The neighbour gone, CISI once more: the same server, warm, alone again.
      for (const shape of shapes) await bench.collections.delete({ collection_name: shape });
      progress('CISI: measuring alone again');
      judged.aloneAgain = await measureJudged(sift, cisi!);
    }

    // The fixed cost of one HTTP round trip: a request refused with 401 before any database work.
    const refused: number[] = [];
    for (let i = 0; i < queryCount + 20; i++) {
      const t = performance.now();
      await sift.post('/queries/top-documents', { collection_name: 'small', query: queries[i % queries.length], k: K }, null).catch(() => {});
      if (i >= 20) refused.push(performance.now() - t);
    }
    const result: RetrievalBenchResult = { dialect, shapes: results, storageBefore, refusedP50: percentile(refused, 50), judged };
    printRetrieval(result, megabytes, queryCount);
    return result;
  } finally {
    await sift.stop();
    await aloneServer?.stop();
    await bare.stop();
    rmSync(floorDir, { recursive: true, force: true });
  }
}

/** One request at a time, Sift and the floor interleaved query by query (same machine load). */
async function measureLatency(sift: Sift, bare: BareHttpServer, collection: string, floor: Floor, queries: string[]): Promise<LatencyRow[]> {
  const key = sift.keys.Bench!;
  const rows: LatencyRow[] = [];
  for (const item of SIFT_KINDS) {
    // Warm-up, both sides alike: the whole query set once (JIT of the server's threads, page
    // cache). With 20 queries only, the server's code was still being optimized during the run
    // (fine snippets, one at a time: 1.35 ms a query in a first pass, 0.83 in a third).
    for (const query of queries) {
      await sift.post(item.path, item.body(collection, query), key);
      floor.query(item.table, query, K);
      await bare.post(item.path, item.body(collection, query));
    }
    const http: number[] = [];
    const fts: number[] = [];
    const bareHttp: number[] = [];
    const cpuBefore = sift.cpuSeconds();
    for (const query of queries) {
      let t = performance.now();
      await sift.post(item.path, item.body(collection, query), key);
      http.push(performance.now() - t);
      t = performance.now();
      floor.query(item.table, query, K);
      fts.push(performance.now() - t);
      t = performance.now();
      await bare.post(item.path, item.body(collection, query));
      bareHttp.push(performance.now() - t);
    }
    // The bare server's requests cost this server nothing: it is idle meanwhile.
    const cpuMs = ((sift.cpuSeconds() - cpuBefore) * 1000) / queries.length;
    const p50 = percentile(http, 50);
    const floorP50 = percentile(fts, 50);
    const bareP50 = percentile(bareHttp, 50);
    rows.push({
      kind: item.kind,
      cpuMs,
      p50,
      p99: percentile(http, 99),
      floorP50,
      floorP99: percentile(fts, 99),
      ratio: p50 / floorP50,
      bareP50,
      leastRatio: (bareP50 + floorP50) / floorP50,
      target: item.target,
    });
  }
  return rows;
}

/** Metadata filters of each selectivity (documents i have group g<i % 10> and shard s<i % 200>). */
const FILTERS: { name: string; filter: object }[] = [
  { name: 'shard = s7 (0.5%)', filter: { shard: { $eq: 's7' } } },
  { name: 'group = g3 (10%)', filter: { group: { $eq: 'g3' } } },
  { name: 'group in 5 values (50%)', filter: { group: { $in: ['g0', 'g1', 'g2', 'g3', 'g4'] } } },
  { name: 'group != g0 (90%)', filter: { group: { $ne: 'g0' } } },
];

/** p50 of filtered queries, one at a time, each filter's run beside the same queries unfiltered. */
async function measureFiltered(sift: Sift, collection: string, queries: string[]): Promise<FilteredRow[]> {
  const key = sift.keys.Bench!;
  const kinds = SIFT_KINDS.filter((item) => item.kind === 'top-documents' || item.kind === 'top-snippets fine');
  const querySets = [
    { name: 'usual', queries },
    { name: 'common terms', queries: generateCommonQueries(queries.length) },
  ];
  const p50 = async (path: string, bodies: object[]) => {
    const samples: number[] = [];
    for (const [i, body] of [...bodies.slice(0, 10), ...bodies].entries()) {
      const t = performance.now();
      await sift.post(path, body, key);
      if (i >= 10) samples.push(performance.now() - t);
    }
    return percentile(samples, 50);
  };
  const rows: FilteredRow[] = [];
  for (const item of kinds) {
    for (const set of querySets) {
      // Queries of the most common terms weigh nearly every row: this part takes minutes.
      progress(`${collection}: filtered ${item.kind}, ${set.name} queries`);
      const plain = set.queries.map((query) => item.body(collection, query));
      const unfilteredP50 = await p50(item.path, plain);
      for (const { name, filter } of FILTERS) {
        rows.push({ kind: item.kind, queries: set.name, filter: name, p50: await p50(item.path, plain.map((body) => ({ ...body, filter }))), unfilteredP50 });
      }
    }
  }
  return rows;
}

/**
 * The judged collection's nDCG@10, of BM25 and of BM25's top 50 reranked. Its latency beside the
 * neighbour is measurePaired's: measured here, alone and alone again minutes apart, it moved with
 * the machine (+34.7% / +82.6% beside against alone again in a run whose paired figures were
 * -11.0% / -0.7%).
 */
async function measureJudged(sift: Sift, cisi: Cisi): Promise<JudgedFigures> {
  const quietSeconds = await sift.quiet();
  const key = sift.keys.Judged!;
  const texts = new Map(cisi.documents.map((document) => [document.path, document.pages[0]!]));
  const reranker = rerankModel('zerank-2');
  type Hits = { results: { path: string; score: number }[] };
  let ndcgSum = 0;
  let rerankedSum = 0;
  for (const query of cisi.queries) {
    const top50 = await sift.post<Hits>('/queries/top-documents', { collection_name: 'cisi', query: query.text, k: 50 }, key);
    const paths = top50.results.map((hit) => hit.path);
    ndcgSum += ndcgAt(10, paths, query.relevant);
    // The built-in reranker in this process as the queries' option runs it, given the index's
    // scores (the same model code the server runs, without the per-organization byte budget that
    // would make the benchmark wait).
    const firstStageScores = top50.results.map((hit) => hit.score);
    const scores = await reranker.score(query.text, paths.map((path) => texts.get(path) ?? ''), { firstStageScores });
    const reranked = paths.map((path, i) => ({ path, score: scores[i]!, i })).sort((a, b) => b.score - a.score || a.i - b.i);
    rerankedSum += ndcgAt(10, reranked.map((hit) => hit.path), query.relevant);
  }
  return {
    quietSeconds,
    ndcg: ndcgSum / cisi.queries.length,
    ndcgReranked: rerankedSum / cisi.queries.length,
  };
}

/**
 * CISI's p50 and server CPU a query beside the neighbour (`beside`, the main server) and on a server
 * holding only CISI (`alone`), one pass of the 76 queries on each in turn, the order swapped every
 * pass, after warm passes on each: both are measured under the same machine load.
 */
export async function measurePaired(beside: Sift, alone: Sift, cisi: Cisi): Promise<PairedFigures> {
  await beside.quiet();
  await alone.quiet();
  const kinds = [
    { path: '/queries/top-documents', body: (query: string) => ({ collection_name: 'cisi', query, k: 10 }) },
    { path: '/queries/top-snippets', body: (query: string) => ({ collection_name: 'cisi', query, k: K, precise_responses: true }) },
  ];
  const samples = kinds.map(() => ({ beside: [] as number[], alone: [] as number[], besideCpu: 0, aloneCpu: 0 }));
  // Three warm passes: the main server has served far more requests than the other, and V8
  // compiles a function's faster code only after many calls (with one, beside was 9-15% faster).
  const warm = 3;
  for (let pass = 0; pass < warm + 8; pass++) {
    for (const [i, kind] of kinds.entries()) {
      const order = pass % 2 === 0 ? (['beside', 'alone'] as const) : (['alone', 'beside'] as const);
      for (const which of order) {
        const server = which === 'beside' ? beside : alone;
        const cpuBefore = server.cpuSeconds();
        for (const query of cisi.queries) {
          const t = performance.now();
          await server.post(kind.path, kind.body(query.text), server.keys.Judged!);
          if (pass >= warm) samples[i]![which].push(performance.now() - t);
        }
        if (pass >= warm) samples[i]![`${which}Cpu`] += server.cpuSeconds() - cpuBefore;
      }
    }
  }
  const figures = (i: number, which: 'beside' | 'alone') => ({
    p50: percentile(samples[i]![which], 50),
    cpuMs: (samples[i]![`${which}Cpu`] * 1000) / samples[i]![which].length,
  });
  return { documents: { beside: figures(0, 'beside'), alone: figures(0, 'alone') }, snippets: { beside: figures(1, 'beside'), alone: figures(1, 'alone') } };
}

function printRetrieval(result: RetrievalBenchResult, megabytes: number, queryCount: number): void {
  console.log(`\nRetrieval on ${result.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}: a server process, this process as its client.`);
  banner();
  console.log(`Floor: ${floorAnalyzer.name}; a file holding only the measured collection's rows.`);
  console.log(`\nIngestion of ${megabytes} MB through the zeroentropy SDK, 8 uploads in flight, until every document is final (target: ratio >= 0.5)`);
  console.table(
    result.shapes.map(({ shape, ingest: figures, ingestCpuSeconds, ingestDatabaseCpuSeconds, floorMegabytesPerSecond: floor }) => ({
      corpus: SHAPES[shape],
      documents: figures.documents,
      'upload s': round(figures.uploadSeconds),
      'until indexed s': round(figures.seconds),
      'Sift MB/s': round(figures.megabytesPerSecond),
      'floor MB/s (text once)': round(floor.textOnce),
      ratio: round(figures.megabytesPerSecond / floor.textOnce),
      'floor MB/s (4 tables)': round(floor.allTables),
      'ratio (4 tables)': round(figures.megabytesPerSecond / floor.allTables),
      'server CPU s per MB': round(ingestCpuSeconds / figures.megabytes, 3),
      ...(ingestDatabaseCpuSeconds === null ? {} : { 'PostgreSQL CPU s per MB': round(ingestDatabaseCpuSeconds / figures.megabytes, 3) }),
      failed: figures.failedUploads + figures.failedDocuments,
    })),
  );
  console.log(`\nStorage once quiet after each corpus, ${result.dialect === 'postgres' ? "the schema's tables (pg_total_relation_size)" : 'the data folder, write-ahead logs included'}, against the text it holds (target: SQLite <= 3x, PostgreSQL <= 4x)`);
  const before = result.storageBefore;
  console.log(`Before the first: ${round(before.bytes / 1e6)} MB, ${before.textBytes ? `CISI's ${round(before.textBytes / 1e6)} MB of text and ` : ''}the empty server's tables`);
  console.table(
    result.shapes.map(({ shape, storage }) => ({
      'after corpus': SHAPES[shape],
      'text MB': round(storage.textBytes / 1e6),
      'stored MB': round(storage.bytes / 1e6),
      'x text': round(storage.bytes / storage.textBytes),
      'this corpus: MB': round(storage.added.bytes / 1e6),
      'x its text': round(storage.added.bytes / storage.added.textBytes),
    })),
  );
  console.log(
    `\n"bare HTTP": a bare node:http server in a process of its own answering a constant 401 (bench/support/bare-http.ts), timed in turn with Sift and the floor, query by query; "least ratio": its round trip plus the floor's query, over the floor's query, what an HTTP server doing nothing else would reach.`,
  );
  for (const shape of result.shapes) {
    console.log(
      `\nLatency, ${SHAPES[shape.shape]}, k = ${K}, ${queryCount} queries per kind, one at a time, once the server had gone quiet (${round(shape.quietSeconds, 0)} s after the floor was built)`,
    );
    console.table(
      shape.latency.map((row) => ({
        kind: row.kind,
        'HTTP p50 ms': round(row.p50),
        'HTTP p99 ms': round(row.p99),
        'floor p50 ms': round(row.floorP50, 3),
        'floor p99 ms': round(row.floorP99, 3),
        'p50 ratio': round(row.ratio),
        'bare HTTP p50 ms': round(row.bareP50, 3),
        'least ratio': round(row.leastRatio),
        'server CPU ms/query': round(row.cpuMs, 3),
        target: `<= ${row.target}`,
      })),
    );
  }
  for (const shape of result.shapes.filter((figures) => figures.filtered.length > 0)) {
    console.log(`\nFiltered queries, ${SHAPES[shape.shape]}, k = ${K}, one at a time: p50 with a metadata filter against the same queries without it`);
    console.table(
      shape.filtered.map((row) => ({
        kind: row.kind,
        queries: row.queries,
        filter: row.filter,
        'p50 ms': round(row.p50),
        'unfiltered p50 ms': round(row.unfilteredP50),
        'vs unfiltered': round(row.p50 / row.unfilteredP50),
      })),
    );
  }
  console.log(`Fixed HTTP cost (a request refused with 401 before any database work): p50 ${result.refusedP50.toFixed(2)} ms`);
  if (result.dialect === 'postgres') console.log('PostgreSQL target: top-snippets p50 <= 20 ms at 20 MB.');
  if (!result.judged) {
    console.log('\nCISI not found (../shared/data/cisi or SIFT_BENCH_CISI): neighbour effect and nDCG skipped.');
    return;
  }
  const { alone, beside, aloneAgain } = result.judged;
  console.log(
    `\nNeighbour effect: CISI (1,460 abstracts, 76 judged queries) alone, beside ${megabytes} MB of another organization, and alone again once it is deleted, each once the server had gone quiet (target: nDCG identical)`,
  );
  const change = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)}%`;
  const row = (measure: string, pick: (figures: JudgedFigures) => number, digits: number) => ({
    measure,
    alone: round(pick(alone), digits),
    beside: beside ? round(pick(beside), digits) : NaN,
    'alone again': aloneAgain ? round(pick(aloneAgain), digits) : NaN,
  });
  console.table([
    row('nDCG@10 top-documents (BM25)', (figures) => figures.ndcg, 4),
    row('nDCG@10 BM25 top 50 reranked (zerank-2)', (figures) => figures.ndcgReranked, 4),
    row('waited for the server to go quiet, s', (figures) => figures.quietSeconds, 0),
  ]);
  const paired = result.judged.paired;
  if (paired) {
    console.log(
      `\nNeighbour latency: the same CISI queries beside the ${megabytes} MB neighbour (this server) and on a server holding only CISI, one pass of the 76 on each in turn, the order swapped every pass (8 passes after three warm ones): both in the same minutes, so the machine's drift falls on both (target: within 10%)`,
    );
    const pairedRow = (measure: string, kind: PairedKind, pick: (side: PairedKind['beside']) => number) => ({
      measure,
      'server of its own': round(pick(kind.alone), 2),
      beside: round(pick(kind.beside), 2),
      'beside vs its own': change(pick(kind.alone), pick(kind.beside)),
    });
    // On PostgreSQL a search's work is the database's, which the server process's CPU leaves out.
    const cpuRows =
      result.dialect === 'postgres'
        ? []
        : [
            pairedRow('top-documents, server process CPU ms a query', paired.documents, (side) => side.cpuMs),
            pairedRow('top-snippets fine, server process CPU ms a query', paired.snippets, (side) => side.cpuMs),
          ];
    console.table([
      pairedRow('top-documents p50 ms (k = 10)', paired.documents, (side) => side.p50),
      pairedRow('top-snippets fine p50 ms (k = 25)', paired.snippets, (side) => side.p50),
      ...cpuRows,
    ]);
  }
  console.log('Targets: nDCG@10 of BM25 >= 0.40; reranked >= BM25.');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runRetrievalBench();
