import { pathToFileURL } from 'node:url';
import { embedTexts } from '../apps/server/src/domain/models/embed.ts';
import { lexicalRelevance } from '../apps/server/src/engine/models/lexical-relevance.ts';
import { random } from './random.ts';

/**
 * Throughput of the built-in models, in process (the HTTP route adds parsing and serialisation,
 * and the reranker's 2,000,000 bytes-per-minute limit would cap any HTTP measurement at the
 * budget, not at the model). Generated English-like text, fixed seed, single thread.
 */

export interface ModelsBenchRow {
  case: string;
  documents: number;
  megabytes: number;
  seconds: number;
  documentsPerSecond: number;
  megabytesPerSecond: number;
}

/** Passages of about `chars` characters over a Zipf-like vocabulary of 5,000 made-up words. */
function passages(count: number, chars: number, next: () => number): string[] {
  const syllables = ['ka', 'ro', 'mi', 'ten', 'sul', 'ar', 've', 'lo', 'dra', 'in', 'qui', 'pe', 'st', 'or', 'na', 'el'];
  const vocabulary = Array.from({ length: 5000 }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
    return word;
  });
  const word = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(1 / (next() * 0.999 + 0.001)) - 1)]!;
  return Array.from({ length: count }, () => {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const w = next() < 0.08 ? `${word()}.` : word();
      parts.push(w);
      length += w.length + 1;
    }
    return parts.join(' ');
  });
}

/** The median of five timed batches of `repeat` runs: other processes on a small machine add noise. */
async function timed(label: string, documents: string[], repeat: number, run: () => unknown): Promise<ModelsBenchRow> {
  await run(); // warm-up: JIT and regular expression compilation are not throughput
  const batches: number[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const started = performance.now();
    for (let i = 0; i < repeat; i++) await run();
    batches.push((performance.now() - started) / 1000);
  }
  const seconds = batches.sort((a, b) => a - b)[2]!;
  const megabytes = (documents.reduce((sum, d) => sum + Buffer.byteLength(d), 0) * repeat) / 1e6;
  const count = documents.length * repeat;
  return { case: label, documents: count, megabytes, seconds, documentsPerSecond: count / seconds, megabytesPerSecond: megabytes / seconds };
}

export async function runModelsBench(): Promise<ModelsBenchRow[]> {
  const next = random(42);
  const short = passages(1000, 200, next);
  const long = passages(200, 2000, next);
  const query = 'karo mi tensul ar velo';
  const rows: ModelsBenchRow[] = [
    await timed('rerank, 1000 docs x 200 chars', short, 10, () => lexicalRelevance(query, short)),
    await timed('rerank, 200 docs x 2000 chars', long, 10, () => lexicalRelevance(query, long)),
  ];
  // Embedding includes building the response (float arrays, or base64 strings).
  for (const [dimensions, encoding_format] of [
    [2560, 'float'],
    [2560, 'base64'],
    [320, 'base64'],
  ] as const) {
    const run = () => embedTexts({ model: 'zembed-1', input_type: 'document', input: short, dimensions, encoding_format });
    const row = await timed(`embed, 1000 docs x 200 chars, ${dimensions} ${encoding_format}`, short, 3, run);
    rows.push(row);
  }
  const table = rows.map((row) => ({
    case: row.case,
    'docs/batch': row.documents,
    'docs/s': Math.round(row.documentsPerSecond),
    'MB/s': Number(row.megabytesPerSecond.toFixed(2)),
    seconds: Number(row.seconds.toFixed(3)),
  }));
  console.log('\nBuilt-in models (in process, one thread)');
  console.table(table);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runModelsBench();
