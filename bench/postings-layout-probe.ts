/**
 * Issue #40's question, asked of a database a PostgreSQL retrieval run left behind
 * (SIFT_BENCH_KEEP_SCHEMA=1): how large would a collection's postings be as blocks of postings
 * (one row per granularity, term and block) instead of one row a posting, and what would a search's
 * BM25 over them cost. Not a figure of the report: a probe, run with
 *   npx tsx bench/postings-layout-probe.ts 'postgres://...?options=-c search_path=sift_bench_...' [collection key]
 * It copies the postings into probe tables of the same schema, prints their sizes, then times each
 * layout's best rows for the benchmark's queries (fine snippets and documents) against today's
 * statement, checking that they rank the same rows.
 */
import pg from 'pg';
import { queryTermCounts } from '../apps/server/src/engine/search/analyzer.ts';
import { BM25_MIN_IDF, bm25Idf, bm25TermWeight } from '../apps/server/src/engine/search/rank.ts';
import { generateCommonQueries, generateQueries } from './support/corpus.ts';
import { percentile, round } from './support/stats.ts';

const [url, keyArgument = '1'] = process.argv.slice(2);
if (!url) throw new Error('usage: postings-layout-probe.ts <postgres url with search_path> [collection key]');
const key = Number(keyArgument);
const postings = `search_postings_${key}`;
const client = new pg.Client({ connectionString: url });

/** A posting as today's table holds it. */
interface Posting {
  seq: number;
  document: number;
  tf: number;
  length: number;
}

/** Unsigned LEB128 varints appended to `out`. */
function putVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

/** A block's postings as varints: row seq and document seq as deltas from the previous posting's, tf, length. */
function encodeBlock(block: Posting[], first: Posting): Buffer {
  const out: number[] = [];
  let previous = { seq: first.seq, document: first.document };
  for (const posting of block) {
    putVarint(out, posting.seq - previous.seq);
    // Zigzag: a term's rows in seq order may go back to an earlier document (pages, snippets).
    const documentDelta = posting.document - previous.document;
    putVarint(out, documentDelta < 0 ? -2 * documentDelta - 1 : 2 * documentDelta);
    putVarint(out, posting.tf);
    putVarint(out, posting.length);
    previous = posting;
  }
  return Buffer.from(out);
}

/** Decodes encodeBlock's bytes into `onPosting` calls. */
function decodeBlock(bytes: Buffer, firstSeq: number, firstDocument: number, onPosting: (seq: number, document: number, tf: number, length: number) => void): void {
  let at = 0;
  const next = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('a truncated varint');
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  let seq = firstSeq;
  let document = firstDocument;
  while (at < bytes.length) {
    seq += next();
    const documentDelta = next();
    document += documentDelta % 2 === 1 ? -(documentDelta + 1) / 2 : documentDelta / 2;
    const tf = next();
    onPosting(seq, document, tf, next());
  }
}

/** Every posting of the collection, by granularity and term, in row order. */
async function readPostings(): Promise<Map<string, Posting[]>> {
  const { rows } = await client.query<{ granularity: number; term: string; row_seq: string; document_seq: string; tf: number; length: number }>(
    `select granularity, term, row_seq, document_seq, tf, length from ${postings} order by granularity, term, row_seq`,
  );
  const lists = new Map<string, Posting[]>();
  for (const row of rows) {
    const listKey = `${row.granularity} ${row.term}`;
    let list = lists.get(listKey);
    if (!list) lists.set(listKey, (list = []));
    list.push({ seq: Number(row.row_seq), document: Number(row.document_seq), tf: row.tf, length: row.length });
  }
  return lists;
}

/** Blocks of a posting list: up to `size` postings each, or (size 0) one block per `batchOf` documents. */
function blocksOf(list: Posting[], size: number, batchOf: (document: number) => number): Posting[][] {
  const blocks: Posting[][] = [];
  for (const posting of list) {
    const last = blocks.at(-1);
    const full = !last || (size > 0 ? last.length >= size : batchOf(last[0]!.document) !== batchOf(posting.document));
    if (full) blocks.push([posting]);
    else last.push(posting);
  }
  return blocks;
}

/** A varint layout's table: (granularity, term, first_seq) -> first document, count, the rest's bytes. */
async function writeVarintLayout(table: string, lists: Map<string, Posting[]>, size: number, batchOf: (document: number) => number): Promise<void> {
  await client.query(`drop table if exists ${table}`);
  await client.query(`create table ${table} (first_seq bigint not null, first_document bigint not null, n integer not null, granularity smallint not null,
    term text collate "C" not null, postings bytea not null, primary key (granularity, term, first_seq))`);
  const columns: { g: number[]; t: string[]; s: number[]; d: number[]; n: number[]; p: string[] } = { g: [], t: [], s: [], d: [], n: [], p: [] };
  const flush = async () => {
    await client.query(
      `insert into ${table} (granularity, term, first_seq, first_document, n, postings)
       select g, t, s, d, n, decode(p, 'hex') from unnest($1::smallint[], $2::text[], $3::bigint[], $4::bigint[], $5::int[], $6::text[]) as x(g, t, s, d, n, p)`,
      [columns.g, columns.t, columns.s, columns.d, columns.n, columns.p],
    );
    for (const column of Object.values(columns)) column.length = 0;
  };
  for (const [listKey, list] of lists) {
    const [granularity, term] = [Number(listKey.split(' ')[0]), listKey.split(' ')[1]!];
    for (const block of blocksOf(list, size, batchOf)) {
      columns.g.push(granularity);
      columns.t.push(term);
      columns.s.push(block[0]!.seq);
      columns.d.push(block[0]!.document);
      columns.n.push(block.length);
      columns.p.push(encodeBlock(block, block[0]!).toString('hex'));
    }
    if (columns.g.length >= 5_000) await flush();
  }
  await flush();
  await client.query(`vacuum analyze ${table}`);
}

/** An array layout's table, made in SQL: deltas of row and document seqs, tf and length as arrays, `size` postings a block. */
async function writeArrayLayout(table: string, size: number): Promise<void> {
  await client.query(`drop table if exists ${table}`);
  await client.query(`create table ${table} (first_seq bigint not null, first_document bigint not null, n integer not null, granularity smallint not null,
    term text collate "C" not null, seq_deltas int[] not null, document_deltas int[] not null, tfs int[] not null, lengths int[] not null,
    primary key (granularity, term, first_seq))`);
  await client.query(`insert into ${table}
    select min(row_seq), min(document_seq), count(*), granularity, term,
      array_agg((row_seq - coalesce(prev_seq, row_seq))::int order by row_seq), array_agg((document_seq - coalesce(prev_document, document_seq))::int order by row_seq),
      array_agg(tf order by row_seq), array_agg(length order by row_seq)
    from (select b.*, lag(row_seq) over w as prev_seq, lag(document_seq) over w as prev_document
          from (select p.*, (row_number() over (partition by granularity, term order by row_seq) - 1) / ${size} as block from ${postings} p) b
          window w as (partition by granularity, term, block order by row_seq)) x
    group by granularity, term, block`);
  await client.query(`vacuum analyze ${table}`);
}

const sizeOf = async (table: string, started: number): Promise<{ rows: number; bytes: number; seconds: number }> => {
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await client.query<{ rows: string; bytes: string }>(`select (select count(*) from ${table}) as rows, pg_total_relation_size('${table}') as bytes`);
  return { rows: Number(rows[0]!.rows), bytes: Number(rows[0]!.bytes), seconds };
};

/** The statistics a search of one granularity reads. */
async function statsOf(granularity: string): Promise<{ n: number; average: number }> {
  const { rows } = await client.query<{ n: number; tokens: number }>(
    `select coalesce(sum(rows), 0)::float8 as n, coalesce(sum(tokens), 0)::float8 as tokens from search_stats s join search_collections k on k.collection_id = s.collection_id
     where k.key = $1 and s.granularity = $2`,
    [key, granularity],
  );
  return { n: rows[0]!.n, average: rows[0]!.tokens / rows[0]!.n };
}

type Best = { seq: number; weight: number }[];

/** Today's statement's core (postgres.ts `best`), unfiltered. */
async function bestToday(code: number, terms: string[], weights: number[], stats: { n: number; average: number }, limit: number): Promise<Best> {
  const { rows } = await client.query<{ seq: string; weight: number }>({
    name: `today ${code}`,
    text: `select p.row_seq as seq, sum(q.weight * (case when ($4 - p.df + 0.5) / (p.df + 0.5) <= 1 then ${BM25_MIN_IDF}::float8 else ln(($4 - p.df + 0.5) / (p.df + 0.5)) end)
        * (p.tf * 2.2) / (p.tf + 1.2 * (0.25 + 0.75 * p.length / $5))) as weight
      from unnest($1::text[], $2::float8[]) as q(term, weight)
      cross join lateral (select row_seq, tf::float8 as tf, length::float8 as length, count(*) over ()::float8 as df from ${postings}
        where granularity = $3 and term = q.term offset 0) p
      group by p.row_seq order by weight desc, p.row_seq limit $6`,
    values: [terms, weights, code, stats.n, stats.average, limit],
  });
  return rows.map((row) => ({ seq: Number(row.seq), weight: row.weight }));
}

/** The same over the array layout, unnested in SQL; a term's document frequency is the sum of its blocks' counts. */
async function bestArrays(table: string, code: number, terms: string[], weights: number[], stats: { n: number; average: number }, limit: number): Promise<Best> {
  const { rows } = await client.query<{ seq: string; weight: number }>({
    name: `arrays ${table} ${code}`,
    text: `select p.seq, sum(q.weight * (case when ($4 - p.df + 0.5) / (p.df + 0.5) <= 1 then ${BM25_MIN_IDF}::float8 else ln(($4 - p.df + 0.5) / (p.df + 0.5)) end)
        * (p.tf * 2.2) / (p.tf + 1.2 * (0.25 + 0.75 * p.length / $5))) as weight
      from unnest($1::text[], $2::float8[]) as q(term, weight)
      cross join lateral (
        select b.first_seq + sum(u.d) over (partition by b.first_seq order by u.i) as seq, u.tf::float8 as tf, u.length::float8 as length,
          (select sum(n) from ${table} c where c.granularity = $3 and c.term = q.term)::float8 as df
        from ${table} b cross join lateral unnest(b.seq_deltas, b.tfs, b.lengths) with ordinality as u(d, tf, length, i)
        where b.granularity = $3 and b.term = q.term offset 0) p
      group by p.seq order by weight desc, p.seq limit $6`,
    values: [terms, weights, code, stats.n, stats.average, limit],
  });
  return rows.map((row) => ({ seq: Number(row.seq), weight: row.weight }));
}

/** The same over the varint layout: the terms' blocks read in one statement, decoded and scored here. */
async function bestVarint(table: string, code: number, terms: string[], weights: number[], stats: { n: number; average: number }, limit: number): Promise<Best> {
  const { rows } = await client.query<{ i: number; first_seq: string; first_document: string; n: number; postings: Buffer }>({
    name: `varint ${table} ${code}`,
    text: `select q.i, b.first_seq, b.first_document, b.n, b.postings from unnest($1::text[]) with ordinality as q(term, i)
      join ${table} b on b.granularity = $2 and b.term = q.term`,
    values: [terms, code],
  });
  const df = new Float64Array(terms.length);
  for (const row of rows) df[row.i - 1]! += row.n;
  const weightOf = new Map<number, number>();
  for (const row of rows) {
    const factor = weights[row.i - 1]! * bm25Idf(stats.n, df[row.i - 1]!);
    decodeBlock(row.postings, Number(row.first_seq), Number(row.first_document), (seq, _document, tf, length) => {
      weightOf.set(seq, (weightOf.get(seq) ?? 0) + factor * bm25TermWeight(tf, length, stats.average));
    });
  }
  return [...weightOf].map(([seq, weight]) => ({ seq, weight })).sort((a, b) => b.weight - a.weight || a.seq - b.seq).slice(0, limit);
}

const same = (a: Best, b: Best) => a.length === b.length && a.every((x, i) => x.seq === b[i]!.seq && Number(x.weight.toPrecision(12)) === Number(b[i]!.weight.toPrecision(12)));

/**
 * Rare terms packed together: a row holds consecutive terms of a granularity (term order) until it
 * has `size` postings, each term's name, count and postings (seq and document from 0) in its bytes,
 * so a term found in a row or two costs no row of its own. Sizes only: a search would find a term's
 * row by the last first_term at or before it.
 */
async function writePackedLayout(table: string, lists: Map<string, Posting[]>, size: number): Promise<void> {
  await client.query(`drop table if exists ${table}`);
  await client.query(`create table ${table} (first_seq bigint not null, granularity smallint not null, first_term text collate "C" not null,
    postings bytea not null, primary key (granularity, first_term, first_seq))`);
  const rows: { g: number[]; t: string[]; s: number[]; p: string[] } = { g: [], t: [], s: [], p: [] };
  let open: { granularity: number; term: string; seq: number; bytes: number[]; count: number } | null = null;
  const close = () => {
    if (open) {
      rows.g.push(open.granularity);
      rows.t.push(open.term);
      rows.s.push(open.seq);
      rows.p.push(Buffer.from(open.bytes).toString('hex'));
    }
    open = null;
  };
  for (const [listKey, list] of [...lists].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [granularity, term] = [Number(listKey.split(' ')[0]), listKey.split(' ')[1]!];
    for (let at = 0; at < list.length; at += size) {
      const block = list.slice(at, at + size);
      if (!open || open.granularity !== granularity || open.count + block.length > size) {
        close();
        open = { granularity, term, seq: block[0]!.seq, bytes: [], count: 0 };
      }
      const name = Buffer.from(term);
      putVarint(open.bytes, name.length);
      open.bytes.push(...name);
      putVarint(open.bytes, block.length);
      open.bytes.push(...encodeBlock(block, { seq: 0, document: 0, tf: 0, length: 0 }));
      open.count += block.length;
    }
  }
  close();
  for (let at = 0; at < rows.g.length; at += 5_000) {
    await client.query(
      `insert into ${table} (granularity, first_term, first_seq, postings)
       select g, t, s, decode(p, 'hex') from unnest($1::smallint[], $2::text[], $3::bigint[], $4::text[]) as x(g, t, s, p)`,
      [rows.g.slice(at, at + 5_000), rows.t.slice(at, at + 5_000), rows.s.slice(at, at + 5_000), rows.p.slice(at, at + 5_000)],
    );
  }
  await client.query(`vacuum analyze ${table}`);
}

/**
 * Ingestion's side: the postings written again batch by batch (32 documents, one transaction
 * each, in document order) as today's rows, with today's keys, and as one varint block per term
 * and batch; seconds for each, alternating batch by batch.
 */
async function timeBatchWrites(lists: Map<string, Posting[]>): Promise<{ rows: number; blocks: number }> {
  await client.query('drop table if exists probe_rows_batched');
  await client.query(`create table probe_rows_batched (row_seq bigint not null, document_seq bigint not null, tf integer not null, length integer not null,
    granularity smallint not null, term text collate "C" not null, primary key (granularity, term, row_seq) include (document_seq, tf, length))`);
  await client.query('create index on probe_rows_batched (document_seq)');
  await client.query('drop table if exists probe_blocks_batched');
  await client.query(`create table probe_blocks_batched (first_seq bigint not null, first_document bigint not null, n integer not null, granularity smallint not null,
    term text collate "C" not null, postings bytea not null, primary key (granularity, term, first_seq))`);
  const documents = (await client.query<{ seq: string }>('select seq from documents order by seq')).rows.map((row) => Number(row.seq));
  const batchOf = new Map(documents.map((seq, i) => [seq, Math.floor(i / 32)]));
  const batches = new Map<number, { granularity: number; term: string; postings: Posting[] }[]>();
  for (const [listKey, list] of lists) {
    const [granularity, term] = [Number(listKey.split(' ')[0]), listKey.split(' ')[1]!];
    for (const block of blocksOf(list, 0, (document) => batchOf.get(document) ?? -1)) {
      const batch = batchOf.get(block[0]!.document) ?? -1;
      if (!batches.has(batch)) batches.set(batch, []);
      batches.get(batch)!.push({ granularity, term, postings: block });
    }
  }
  const seconds = { rows: 0, blocks: 0 };
  for (const [, lists] of [...batches].sort(([a], [b]) => a - b)) {
    let started = performance.now();
    const flat = lists.flatMap(({ granularity, term, postings }) => postings.map((posting) => ({ granularity, term, ...posting })));
    await client.query('begin');
    await client.query(
      `insert into probe_rows_batched (granularity, term, row_seq, document_seq, tf, length)
       select * from unnest($1::smallint[], $2::text[], $3::bigint[], $4::bigint[], $5::int[], $6::int[])`,
      [flat.map((p) => p.granularity), flat.map((p) => p.term), flat.map((p) => p.seq), flat.map((p) => p.document), flat.map((p) => p.tf), flat.map((p) => p.length)],
    );
    await client.query('commit');
    seconds.rows += (performance.now() - started) / 1000;
    started = performance.now();
    await client.query('begin');
    await client.query(
      `insert into probe_blocks_batched (granularity, term, first_seq, first_document, n, postings)
       select g, t, s, d, n, decode(p, 'hex') from unnest($1::smallint[], $2::text[], $3::bigint[], $4::bigint[], $5::int[], $6::text[]) as x(g, t, s, d, n, p)`,
      [
        lists.map((l) => l.granularity),
        lists.map((l) => l.term),
        lists.map((l) => l.postings[0]!.seq),
        lists.map((l) => l.postings[0]!.document),
        lists.map((l) => l.postings.length),
        lists.map((l) => encodeBlock(l.postings, l.postings[0]!).toString('hex')),
      ],
    );
    await client.query('commit');
    seconds.blocks += (performance.now() - started) / 1000;
  }
  return seconds;
}

/** Writes every layout's probe table; their rows, bytes and seconds to write, today's first. */
async function writeLayouts(lists: Map<string, Posting[]>): Promise<Record<string, { rows: number; bytes: number; seconds: number }>> {
  const sizes: Record<string, { rows: number; bytes: number; seconds: number }> = { today: await sizeOf(postings, performance.now()) };
  for (const size of [128, 512]) {
    const started = performance.now();
    await writeArrayLayout(`probe_arrays_${size}`, size);
    sizes[`arrays ${size}`] = await sizeOf(`probe_arrays_${size}`, started);
  }
  for (const size of [128, 512, 2048]) {
    const started = performance.now();
    await writeVarintLayout(`probe_varint_${size}`, lists, size, () => 0);
    sizes[`varint ${size}`] = await sizeOf(`probe_varint_${size}`, started);
  }
  const packed = performance.now();
  await writePackedLayout('probe_packed_512', lists, 512);
  sizes['varint 512, rare terms packed together'] = await sizeOf('probe_packed_512', packed);
  // One block per term and ingestion batch (32 documents in document order): what ingestion alone writes, before any merge.
  const documents = (await client.query<{ seq: string }>('select seq from documents order by seq')).rows.map((row) => Number(row.seq));
  const batch = new Map(documents.map((seq, i) => [seq, Math.floor(i / 32)]));
  const started = performance.now();
  await writeVarintLayout('probe_varint_batch', lists, 0, (document) => batch.get(document) ?? -1);
  sizes['varint per batch of 32'] = await sizeOf('probe_varint_batch', started);
  return sizes;
}

async function main(): Promise<void> {
  await client.connect();
  // PROBE_TIMINGS_ONLY=1: the probe tables of an earlier run are timed again, not written.
  if (!process.env.PROBE_TIMINGS_ONLY) {
    const text = Number((await client.query<{ n: string }>('select coalesce(sum(length(text)), 0) as n from document_pieces')).rows[0]!.n);
    const lists = await readPostings();
    const count = [...lists.values()].reduce((sum, list) => sum + list.length, 0);
    const sizes = await writeLayouts(lists);
    const schemaBytes = Number(
      (await client.query<{ n: string }>(`select sum(pg_total_relation_size(c.oid)) as n from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname !~ '^probe_'`))
        .rows[0]!.n,
    );
    const others = schemaBytes - sizes.today!.bytes;
    console.log(`text ${round(text / 1e6)} MB, ${count} postings, the schema's other tables ${round(others / 1e6)} MB (${round(others / text)}x the text)`);
    console.table(
      Object.entries(sizes).map(([layout, { rows, bytes, seconds }]) => ({
        layout,
        rows,
        MB: round(bytes / 1e6),
        'B/posting': round(bytes / count),
        'database x text': round((others + bytes) / text),
        's to write (all at once)': round(seconds),
      })),
    );
  }
  if (process.env.PROBE_BATCH_WRITES) {
    const seconds = await timeBatchWrites(await readPostings());
    console.log(`\nWritten again batch by batch (32 documents a transaction): today's rows ${round(seconds.rows)} s, varint blocks per term and batch ${round(seconds.blocks)} s`);
  }
  await timeLayouts();
  await client.end();
}

/** Each layout's best rows for the benchmark's usual queries and for those of its most common terms. */
async function timeLayouts(): Promise<void> {
  for (const [set, texts] of [['usual', generateQueries(200)], ['most common terms', generateCommonQueries(50)]] as const) {
    for (const [granularity, code] of [['fine', 3], ['documents', 0]] as const) await timeGranularity(set, texts.map((query) => queryTermCounts(query)), granularity, code);
  }
}

/** One granularity's timings for one set of queries, layouts alternating query by query; the first pass warms up. */
async function timeGranularity(set: string, queries: { term: string; count: number }[][], granularity: string, code: number): Promise<void> {
  const stats = await statsOf(granularity);
  const runs: Record<string, (terms: string[], weights: number[]) => Promise<Best>> = {
    today: (t, w) => bestToday(code, t, w, stats, 57),
    'arrays 512 (SQL)': (t, w) => bestArrays('probe_arrays_512', code, t, w, stats, 57),
    'varint 512 (JS)': (t, w) => bestVarint('probe_varint_512', code, t, w, stats, 57),
    'varint 2048 (JS)': (t, w) => bestVarint('probe_varint_2048', code, t, w, stats, 57),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
  const differing: Record<string, number> = Object.fromEntries(Object.keys(runs).map((name) => [name, 0]));
  for (const pass of [0, 1]) {
    for (const query of queries) {
      const [terms, weights] = [query.map((q) => q.term), query.map((q) => q.count)];
      let reference: Best | null = null;
      for (const [name, run] of Object.entries(runs)) {
        const start = performance.now();
        const best = await run(terms, weights);
        if (pass === 0) continue;
        times[name]!.push(performance.now() - start);
        reference ??= best;
        if (!same(reference, best)) differing[name]!++;
      }
    }
  }
  console.log(`\n${granularity}: best 57 rows of ${queries.length} ${set} queries, ms (client round trip included)`);
  console.table(Object.entries(times).map(([name, list]) => ({ layout: name, p50: round(percentile(list, 50), 3), p99: round(percentile(list, 99), 3), 'differing from today': differing[name] })));
}

await main();
