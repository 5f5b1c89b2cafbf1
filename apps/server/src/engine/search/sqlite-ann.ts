import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import type HnswLib from 'hnswlib-node';
import { embedderDimensions, embedderHash, INDEXED_FROM } from './vectors.ts';

/**
 * SQLite's approximate nearest rows: an hnswlib HNSW graph (inner product) per collection,
 * granularity and embedder, in files beside the collection's search file:
 * `<collection>.<granularity>.<embedder hash>.hnsw` and a `.json` beside it naming the highest
 * vectors rowid the index holds (`through`). Upkeep builds one once a granularity has
 * INDEXED_FROM vectors of the embedder (the threshold both backends share), and
 * extends it when EXTEND_FROM rows are newer than it; each is written to a temporary file and
 * renamed. A search reads the index's candidates plus the rows newer than `through` exactly,
 * scoring both with the stored vectors (reader-pool.ts, sqlite.ts): rows deleted since drop out
 * when joined to the table. A row whose vector is replaced in place (a document overwritten
 * keeps its rowid; re-embedding) removes the index, so searches scan exactly until it is rebuilt.
 */

/**
 * hnswlib-node's path, or null where it is not installed: an optional dependency, since it
 * compiles at install and a machine without a C++ toolchain skips it. Without it no index is
 * built and searches scan every row exactly.
 */
export const HNSWLIB_PATH: string | null = (() => {
  try {
    return createRequire(import.meta.url).resolve('hnswlib-node');
  } catch {
    return null;
  }
})();

/** Loaded on the first index built, so a server without an embedder never loads it. */
let hnswlib: typeof HnswLib | null = null;
const library = (): typeof HnswLib => (hnswlib ??= createRequire(import.meta.url)(HNSWLIB_PATH!) as typeof HnswLib);

/** Rows newer than an index from which upkeep adds them to it: fewer cost little to scan exactly. */
const EXTEND_FROM = 2_000;

/** Vectors added to an index in one upkeep step: a step holds the ingestion thread, so a fraction of a second. */
const ADD_BATCH = 64;

/**
 * Graph parameters: hnswlib's defaults. With searches 2,000 wide, a build 64 wide took a
 * fraction of the time but missed much more of the exact top 10 of high-dimension vectors.
 */
const CONNECTIVITY = 16;
const EF_CONSTRUCTION = 200;

/** An empty graph with room for `capacity` vectors (grown as it fills). */
function graph(dimensions: number, capacity: number): HnswLib.HierarchicalNSW {
  const index = new (library().HierarchicalNSW)('ip', dimensions);
  index.initIndex({ maxElements: Math.max(capacity, 1), m: CONNECTIVITY, efConstruction: EF_CONSTRUCTION });
  return index;
}

/** What the `.json` beside an index records. */
interface AnnMeta {
  through: number;
  dimensions: number;
  size: number;
}

/** The files of a collection's index of one granularity and embedder, without their extension. */
export function annBase(directory: string, collectionId: string, granularity: string, embedder: string): string {
  return join(directory, `${collectionId}.${granularity}.${embedderHash(embedder)}`);
}

/** A collection's index files (and temporary ones) in the search directory. */
export const ANN_FILE = /^([0-9a-f-]{36})\.[a-z]+\.[0-9a-f]{12}\.(hnsw|json)(\.tmp)?$/;

function readMeta(base: string): AnnMeta | null {
  try {
    return JSON.parse(readFileSync(`${base}.json`, 'utf8')) as AnnMeta;
  } catch {
    return null;
  }
}

/** Removes an index: its record first, so a reader never pairs a record with a missing graph. */
export function removeAnn(base: string): void {
  for (const suffix of ['.json', '.hnsw', '.json.tmp', '.hnsw.tmp']) rmSync(`${base}${suffix}`, { force: true });
}

/** Removes a collection's index files, all of them or those not in `keep` (bases). */
export function removeCollectionAnns(directory: string, collectionId: string, keep: ReadonlySet<string> = new Set()): void {
  if (!existsSync(directory)) return;
  for (const name of readdirSync(directory)) {
    if (ANN_FILE.exec(name)?.[1] !== collectionId) continue;
    const base = join(directory, name.replace(/\.(hnsw|json)(\.tmp)?$/, ''));
    if (!keep.has(base)) rmSync(join(directory, name), { force: true });
  }
}

/** The highest rowid an index holds, 0 without one. */
export const annThrough = (base: string): number => readMeta(base)?.through ?? 0;

/** An index being built or extended across upkeep steps, kept in memory until it is written. */
interface Building {
  index: HnswLib.HierarchicalNSW;
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
    const dimensions = embedderDimensions(embedder);
    const fresh = (): Building => ({ index: graph(dimensions, rows), through: 0 });
    if (!meta) return rows >= INDEXED_FROM ? fresh() : null;
    // Rows deleted since still take places among a search's candidates: past a quarter, made anew.
    const deleted = meta.size - (rows - newer);
    if (deleted > Math.max(EXTEND_FROM, meta.size / 4)) return fresh();
    if (newer < EXTEND_FROM) return null;
    const index = new (library().HierarchicalNSW)('ip', dimensions);
    index.readIndexSync(`${base}.hnsw`);
    index.resizeIndex(index.getCurrentCount() + newer);
    return { index, through: meta.through };
  };

  /** Adds the next batch, or writes the index once it holds every row; false when nothing was to do. */
  const advance = (i: number, base: string, embedder: string): boolean => {
    const current = building.get(base) ?? start(i, base, embedder);
    if (!current) return false;
    building.set(base, current);
    const rows = batches[i]!.all(embedder, current.through, ADD_BATCH);
    if (rows.length > 0) {
      const { index } = current;
      // Rows written since the build started: room doubled rather than grown a batch at a time.
      if (index.getCurrentCount() + rows.length > index.getMaxElements()) index.resizeIndex(2 * (index.getCurrentCount() + rows.length));
      for (const { rowid, vector } of rows) index.addPoint(Array.from(new Float32Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength))), rowid);
      current.through = rows.at(-1)!.rowid;
      return true;
    }
    // The graph first, then its record (removeAnn's order reversed): a reader reads the record first.
    current.index.writeIndexSync(`${base}.hnsw.tmp`);
    renameSync(`${base}.hnsw.tmp`, `${base}.hnsw`);
    const meta: AnnMeta = { through: current.through, dimensions: current.index.getNumDimensions(), size: current.index.getCurrentCount() };
    writeFileSync(`${base}.json.tmp`, JSON.stringify(meta));
    renameSync(`${base}.json.tmp`, `${base}.json`);
    building.delete(base);
    return true;
  };

  return {
    /** One step for `embedder`'s indexes; files of other embedders go. */
    step(embedder: string): boolean {
      if (!HNSWLIB_PATH) return false;
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
