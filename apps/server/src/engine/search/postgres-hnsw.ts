import { type Kysely, type RawBuilder, sql } from 'kysely';
import { hasPostgresCode, POSTGRES_ERRORS } from '../../db/postgres-errors.ts';
import type { QueryVector } from './types.ts';
import { embedderDimensions, embedderHash, INDEXED_FROM } from './vectors.ts';

/**
 * PostgreSQL's approximate nearest rows: a pgvector HNSW index per granularity and embedder on
 * each collection's vectors table (vectorsTable), partial, so no other collection's vectors are in
 * a graph a search walks nor in the indexes its planner weighs. Its expression casts the vectors to
 * their embedder's dimensions (the column has none: embedders may differ in size), and its
 * predicate names the granularity and embedder as literals; nearestStatement repeats both, so the
 * planner can take the index. Without the index the same statement is an exact scan of the
 * granularity's rows through the primary key, so a search never depends on it.
 */

/**
 * A collection's vectors table (migration 023), made when its first vectors are written and
 * dropped with it, as its postings table is (postgres.ts postingsTable): in one table for all,
 * every search's planner weighed every collection's partial indexes, and every insert paid for
 * other collections' indexes, so one organization's vectors changed another's cost.
 */
export const vectorsTable = (collectionKey: number | string): RawBuilder<unknown> => sql.table(`search_vectors_${collectionKey}`);

/** The index of a collection's rows of one granularity embedded by `embedder` (a key of embedderKey). */
export const nearestIndexName = (collectionKey: number | string, granularity: number, embedder: string): string =>
  `search_vectors_${collectionKey}_${granularity}_${embedderHash(embedder)}`;


/**
 * The type a vector of these dimensions is indexed as: pgvector's HNSW takes `vector`s of up to
 * 2,000 dimensions and half-precision ones of up to 4,000; larger ones get no index.
 */
const indexedType = (dimensions: number): 'vector' | 'halfvec' | null => (dimensions <= 2000 ? 'vector' : dimensions <= 4000 ? 'halfvec' : null);

/** The indexed expression: the vector as one of its embedder's dimensions (the column's type has none). */
const indexedExpression = (schema: string, type: 'vector' | 'halfvec', dimensions: number) => sql`(embedding::${sql.id(schema)}.${sql.raw(type)}(${sql.lit(dimensions)}))`;

/** The index's predicate, in literals: a predicate proved from parameters would need a plan made for their values. */
const ownRows = (granularity: number, embedder: string) => sql`granularity = ${sql.lit(granularity)} and embedder = ${sql.lit(embedder)}`;

/**
 * Where a search finds a collection's nearest rows: its vectors table's key, and whether the
 * granularity has a usable HNSW index of `embedder`; null while it has no table (no vectors yet).
 * Without an index the rows are ordered by the full-precision similarity: ordering by the
 * indexed expression would cast every row (to halfvec past 2,000 dimensions) for nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function nearestTable(db: Kysely<any>, collectionId: string, granularity: number, embedder: string): Promise<{ key: number; indexed: boolean } | null> {
  const suffix = nearestIndexName('', granularity, embedder).slice('search_vectors_'.length);
  const { rows } = await sql<{ key: string; indexed: boolean }>`
    select k.key, exists (select 1 from pg_index i where i.indexrelid = to_regclass('search_vectors_' || k.key || ${suffix}) and i.indisvalid) as indexed
    from search_collections k where k.collection_id = ${collectionId} and to_regclass('search_vectors_' || k.key) is not null`.execute(db);
  if (!rows[0]) return null;
  return { key: Number(rows[0].key), indexed: rows[0].indexed && indexedType(embedderDimensions(embedder)) !== null };
}

/**
 * The `depth` rows of a collection's granularity nearest the query vector: (row_seq, similarity),
 * best first: `indexed` (nearestTable), through its HNSW index, run after searchBreadth in its
 * transaction; else by an exact scan of the collection's rows.
 */
export function nearestStatement(schema: string, collectionKey: number, granularity: number, vector: QueryVector, depth: number, indexed: boolean): RawBuilder<{ row_seq: string; similarity: number }> {
  const dimensions = vector.values.length;
  const type = indexedType(dimensions);
  const extension = sql.id(schema);
  // The similarity in full precision, whatever the index holds: only the rows it finds are scored.
  const similarity = sql`${extension}.inner_product(embedding, ${vectorLiteral(vector.values)}::${extension}.vector)`;
  const order =
    indexed && type
      ? sql`${indexedExpression(schema, type, dimensions)} operator(${extension}.<#>) ${vectorLiteral(vector.values)}::${extension}.${sql.raw(type)}(${sql.lit(dimensions)})`
      : sql`similarity desc`;
  return sql`select row_seq, ${similarity} as similarity from ${vectorsTable(collectionKey)}
    where ${ownRows(granularity, vector.embedder)} order by ${order} limit ${depth}`;
}

/**
 * How wide the graph search runs, for this transaction: twice the rows asked for (at most
 * pgvector's 1,000), so the 100 candidates a fusion reads are the exact ones or nearly; past it,
 * the scan goes on in order until it has them all (iterative scans).
 */
export const searchBreadth = (depth: number) =>
  sql`select set_config('hnsw.ef_search', ${String(Math.min(1000, 2 * depth))}, true), set_config('hnsw.iterative_scan', 'strict_order', true)`;

/** Granularities by their code (GRANULARITY_CODES), as search_stats names them. */
const GRANULARITY_NAMES = ['documents', 'pages', 'coarse', 'fine'];

/**
 * The HNSW indexes these collections' rows of `embedder` lack, made once a granularity has
 * INDEXED_FROM rows with the ones being written, before they are (rows already there make the
 * build longer); none for vectors too large for one (indexedType). Made concurrently, so the
 * collection's searches and writes never wait; one another server is making, or that a lock wait
 * stopped, is left for the next batch (its rows are found exactly meanwhile). Each row names its
 * collection's vectors table by `key`, made before.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function makeNearestIndexes(db: Kysely<any>, schema: string, rows: { collectionId: string; key: number; granularity: number }[], embedder: string): Promise<void> {
  if (!indexedType(embedderDimensions(embedder)) || rows.length === 0) return;
  const collectionIds = [...new Set(rows.map((row) => row.collectionId))];
  const { rows: stored } = await sql<{ collection_id: string; granularity: string; rows: string }>`
    select collection_id, granularity, sum(rows) as rows from search_stats where collection_id = any(${collectionIds}::text[]) group by collection_id, granularity`.execute(db);
  const storedRows = new Map(stored.map((row) => [`${row.collection_id} ${GRANULARITY_NAMES.indexOf(row.granularity)}`, Number(row.rows)]));
  const counts = new Map<string, { key: number; granularity: number; rows: number }>();
  for (const { collectionId, key, granularity } of rows) {
    const count = counts.get(`${collectionId} ${granularity}`) ?? { key, granularity, rows: storedRows.get(`${collectionId} ${granularity}`) ?? 0 };
    count.rows++;
    counts.set(`${collectionId} ${granularity}`, count);
  }
  const wanted = new Map<string, { key: number; granularity: number }>();
  for (const { key, granularity, rows: count } of counts.values()) {
    if (count >= INDEXED_FROM) wanted.set(nearestIndexName(key, granularity, embedder), { key, granularity });
  }
  if (wanted.size === 0) return;
  // An index is invalid while it is being built (by another ingestion loop or server), and after a failed build.
  const { rows: existing } = await sql<{ name: string; usable: boolean }>`
    select c.relname as name, i.indisvalid or exists (select 1 from pg_stat_progress_create_index p where p.index_relid = c.oid) as usable
    from pg_class c join pg_index i on i.indexrelid = c.oid
    where c.relnamespace = current_schema()::regnamespace and c.relname = any(${[...wanted.keys()]}::text[])`.execute(db);
  const usable = new Set(existing.filter((row) => row.usable).map((row) => row.name));
  for (const [name, { key, granularity }] of wanted) {
    if (usable.has(name)) continue;
    try {
      // One left invalid by a failed build is made again.
      if (existing.some((row) => row.name === name)) await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
      await createNearestIndex(db, schema, key, granularity, embedder, { concurrently: true });
    } catch (error) {
      if (!hasPostgresCode(error, ...LEFT_FOR_LATER)) throw error;
    }
  }
}

/**
 * The HNSW index of a collection's rows of one granularity and embedder, on its vectors table;
 * `concurrently` but in a migration's transaction, where nothing else writes the table yet.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createNearestIndex(db: Kysely<any>, schema: string, key: number, granularity: number, embedder: string, { concurrently }: { concurrently: boolean }): Promise<void> {
  const dimensions = embedderDimensions(embedder);
  const type = indexedType(dimensions);
  if (!type) return;
  await sql`create index ${sql.raw(concurrently ? 'concurrently ' : '')}if not exists ${sql.id(nearestIndexName(key, granularity, embedder))} on ${vectorsTable(key)}
    using hnsw (${indexedExpression(schema, type, dimensions)} ${sql.id(schema)}.${sql.raw(`${type}_ip_ops`)}) where ${ownRows(granularity, embedder)}`.execute(db);
}

/**
 * Drops the HNSW indexes of an embedder none of their collection's rows of that granularity has
 * now (re-embedded by another); a deleted collection's went with its table. Found by their names,
 * which hold the collection's key, the granularity and the embedder's hash.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropUnusedNearestIndexes(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'i' and c.relname ~ '^search_vectors_[0-9]+_[0-9]_[0-9a-f]{12}$'`.execute(db);
  for (const { name } of rows) {
    const [key, granularity, hash] = name.split('_').slice(2);
    try {
      const { rows: used } = await sql<{ used: boolean }>`
        select exists (select 1 from ${vectorsTable(key!)} where granularity = ${Number(granularity)} and left(md5(embedder), 12) = ${hash}) as used`.execute(db);
      if (!used[0]!.used) await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
    } catch (error) {
      // Its table dropped meanwhile (the collection deleted), and the index with it.
      if (!hasPostgresCode(error, ...LEFT_FOR_LATER, POSTGRES_ERRORS.undefinedTable)) throw error;
    }
  }
}

/**
 * Errors that leave an index for later: unique_violation and duplicate_table (another server
 * made it at the same moment), lock_not_available (lock_timeout passed waiting for others).
 */
const LEFT_FOR_LATER = [POSTGRES_ERRORS.uniqueViolation, POSTGRES_ERRORS.duplicateTable, POSTGRES_ERRORS.lockNotAvailable];

/** pgvector's text form of a vector. */
export const vectorLiteral = (vector: Float32Array): string => `[${Array.from(vector).join(',')}]`;
