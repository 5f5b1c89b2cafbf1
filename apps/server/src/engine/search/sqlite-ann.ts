import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { INDEXED_FROM } from './postgres-hnsw.ts';

/**
 * SQLite's approximate nearest rows: a usearch HNSW index (inner product) per collection,
 * granularity and embedder, in files beside the collection's search file:
 * `<collection>.<granularity>.<embedder hash>.usearch` and a `.json` beside it naming the highest
 * vectors rowid the index holds (`through`). Upkeep builds one once a granularity has
 * INDEXED_FROM vectors of the embedder (PostgreSQL's threshold, for the same reason), and
 * extends it when EXTEND_FROM rows are newer than it; each is written to a temporary file and
 * renamed. A search reads the index's candidates plus the rows newer than `through` exactly,
 * scoring both with the stored vectors (reader-pool.ts, sqlite.ts): rows deleted since drop out
 * when joined to the table. A row whose vector is replaced in place (a document overwritten
 * keeps its rowid; re-embedding) removes the index, so searches scan exactly until it is rebuilt.
 */

/** Rows newer than an index from which upkeep adds them to it: fewer cost little to scan exactly. */
const EXTEND_FROM = 2_000;

/** Vectors added to an index in one upkeep step: a step holds the ingestion thread, so a fraction of a second. */
const ADD_BATCH = 250;

/** Graph parameters: usearch's default connectivity; a build narrower than its default, which cost more time than it gained recall. */
const CONNECTIVITY = 16;
const EXPANSION_ADD = 64;

const graph = (dimensions: number) =>
  new Index({ dimensions, metric: MetricKind.IP, quantization: ScalarKind.F32, connectivity: CONNECTIVITY, expansion_add: EXPANSION_ADD, expansion_search: 0, multi: false });

/** What the `.json` beside an index records. */
interface AnnMeta {
  through: number;
  dimensions: number;
  size: number;
}

/** The files of a collection's index of one granularity and embedder, without their extension. */
export function annBase(directory: string, collectionId: string, granularity: string, embedder: string): string {
  return join(directory, `${collectionId}.${granularity}.${createHash('md5').update(embedder).digest('hex').slice(0, 12)}`);
}

/** A collection's index files (and temporary ones) in the search directory. */
export const ANN_FILE = /^([0-9a-f-]{36})\.[a-z]+\.[0-9a-f]{12}\.(usearch|json)(\.tmp)?$/;

function readMeta(base: string): AnnMeta | null {
  try {
    return JSON.parse(readFileSync(`${base}.json`, 'utf8')) as AnnMeta;
  } catch {
    return null;
  }
}

/** Removes an index: its record first, so a reader never pairs a record with a missing graph. */
export function removeAnn(base: string): void {
  for (const suffix of ['.json', '.usearch', '.json.tmp', '.usearch.tmp']) rmSync(`${base}${suffix}`, { force: true });
}

/** Removes a collection's index files, all of them or those not in `keep` (bases). */
export function removeCollectionAnns(directory: string, collectionId: string, keep: ReadonlySet<string> = new Set()): void {
  if (!existsSync(directory)) return;
  for (const name of readdirSync(directory)) {
    if (ANN_FILE.exec(name)?.[1] !== collectionId) continue;
    const base = join(directory, name.replace(/\.(usearch|json)(\.tmp)?$/, ''));
    if (!keep.has(base)) rmSync(join(directory, name), { force: true });
  }
}

/** The highest rowid an index holds, 0 without one. */
export const annThrough = (base: string): number => readMeta(base)?.through ?? 0;

/** An index being built or extended across upkeep steps, kept in memory until it is written. */
interface Building {
  index: Index;
  through: number;
}

/**
 * The upkeep of a collection's indexes, on its search file's writer connection: `step` does one
 * bounded piece of work on one granularity (start, add a batch, or write the index) and says
 * whether it did any; `forget` drops a build in progress (its rows changed).
 */
export function annUpkeep(connection: SQLite.Database, directory: string, collectionId: string, vectorsTables: readonly [string, string][]) {
  const building = new Map<string, Building>();
  const counts = vectorsTables.map(([, table]) =>
    connection.prepare<[number, string], { rows: number; newer: number }>(`select count(*) as rows, count(*) filter (where rowid > ?) as newer from main.${table} where embedder = ?`),
  );
  const batches = vectorsTables.map(([, table]) =>
    connection.prepare<[string, number, number], { rowid: number; vector: Buffer }>(`select rowid, vector from main.${table} where embedder = ? and rowid > ? order by rowid limit ?`),
  );

  /** Starts a build when a granularity needs one: none yet past INDEXED_FROM, many newer rows, or many deleted. */
  const start = (i: number, base: string, embedder: string): Building | null => {
    const meta = readMeta(base);
    const { rows, newer } = counts[i]!.get(meta?.through ?? 0, embedder)!;
    const dimensions = Number(embedder.slice(embedder.lastIndexOf(':') + 1));
    const fresh = (): Building => ({ index: graph(dimensions), through: 0 });
    if (!meta) return rows >= INDEXED_FROM ? fresh() : null;
    // Rows deleted since still take places among a search's candidates: past a quarter, made anew.
    const deleted = meta.size - (rows - newer);
    if (deleted > Math.max(EXTEND_FROM, meta.size / 4)) return fresh();
    if (newer < EXTEND_FROM) return null;
    const index = graph(dimensions);
    index.load(`${base}.usearch`);
    return { index, through: meta.through };
  };

  /** Adds the next batch, or writes the index once it holds every row; false when nothing was to do. */
  const advance = (i: number, base: string, embedder: string): boolean => {
    const current = building.get(base) ?? start(i, base, embedder);
    if (!current) return false;
    building.set(base, current);
    const rows = batches[i]!.all(embedder, current.through, ADD_BATCH);
    if (rows.length > 0) {
      const dimensions = current.index.dimensions();
      const keys = new BigUint64Array(rows.length);
      const matrix = new Float32Array(rows.length * dimensions);
      rows.forEach(({ rowid, vector }, j) => {
        keys[j] = BigInt(rowid);
        matrix.set(new Float32Array(vector.buffer, vector.byteOffset, dimensions), j * dimensions);
      });
      current.index.add(keys, matrix, 1);
      current.through = rows.at(-1)!.rowid;
      return true;
    }
    // The graph first, then its record (removeAnn's order reversed): a reader reads the record first.
    current.index.save(`${base}.usearch.tmp`);
    renameSync(`${base}.usearch.tmp`, `${base}.usearch`);
    const meta: AnnMeta = { through: current.through, dimensions: current.index.dimensions(), size: current.index.size() };
    writeFileSync(`${base}.json.tmp`, JSON.stringify(meta));
    renameSync(`${base}.json.tmp`, `${base}.json`);
    building.delete(base);
    return true;
  };

  return {
    /** One step for `embedder`'s indexes; files of other embedders go. */
    step(embedder: string): boolean {
      const bases = vectorsTables.map(([granularity]) => annBase(directory, collectionId, granularity, embedder));
      removeCollectionAnns(directory, collectionId, new Set(bases));
      for (const [i, base] of bases.entries()) if (advance(i, base, embedder)) return true;
      return false;
    },
    /**
     * Vectors of `rowids` written in place for a granularity: an index that may hold them
     * (rowid up to its `through`), built or being built, goes.
     */
    replaced(granularity: string, embedder: string, rowids: readonly number[]): void {
      if (rowids.length === 0) return;
      const base = annBase(directory, collectionId, granularity, embedder);
      const least = rowids.reduce((a, b) => Math.min(a, b), Infinity);
      const current = building.get(base);
      if (current && least <= current.through) building.delete(base);
      if (least <= annThrough(base)) removeAnn(base);
    },
  };
}
