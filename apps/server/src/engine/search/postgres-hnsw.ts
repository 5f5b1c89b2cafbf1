import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { QueryVector } from './vectors.ts';

/**
 * PostgreSQL's approximate nearest rows: a pgvector HNSW index per collection, granularity and
 * embedder, partial over `search_vectors` (one index for all would make every organization's
 * vectors part of every search's graph). Its expression casts the vectors to their embedder's
 * dimensions (the column has none: collections may use embedders of different sizes), and its
 * predicate names the collection, granularity and embedder as literals; nearestStatement repeats
 * both, so the planner can take the index. Without the index the same statement is an exact scan
 * of the collection's rows through the primary key, so a search never depends on it.
 */

/** The index of a collection's rows of one granularity embedded by `embedder` (a key of embedderKey). */
export const nearestIndexName = (collectionKey: number | string, granularity: number, embedder: string): string =>
  `search_vectors_${collectionKey}_${granularity}_${createHash('md5').update(embedder).digest('hex').slice(0, 12)}`;

/** The dimensions an embedder's key records (embedderKey: `provider:model:dimensions`). */
const dimensionsOf = (embedder: string): number => Number(embedder.slice(embedder.lastIndexOf(':') + 1));

/**
 * The type a vector of these dimensions is indexed as: pgvector's HNSW takes `vector`s of up to
 * 2,000 dimensions and half-precision ones of up to 4,000; larger ones get no index.
 */
const indexedType = (dimensions: number): 'vector' | 'halfvec' | null => (dimensions <= 2000 ? 'vector' : dimensions <= 4000 ? 'halfvec' : null);

/** The indexed expression: the vector as one of its embedder's dimensions (the column's type has none). */
const indexedExpression = (schema: string, type: 'vector' | 'halfvec', dimensions: number) => sql`(embedding::${sql.id(schema)}.${sql.raw(type)}(${sql.lit(dimensions)}))`;

/** The index's predicate, in literals: a predicate proved from parameters would need a plan made for their values. */
const ownRows = (collectionId: string, granularity: number, embedder: string) =>
  sql`collection_id = ${sql.lit(collectionId)} and granularity = ${sql.lit(granularity)} and embedder = ${sql.lit(embedder)}`;

/**
 * Whether a collection's granularity has a usable HNSW index of `embedder`. Without one the
 * nearest rows are ordered by the full-precision similarity: ordering by the indexed expression
 * would cast every row (to halfvec past 2,000 dimensions) for nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function hasNearestIndex(db: Kysely<any>, collectionId: string, granularity: number, embedder: string): Promise<boolean> {
  if (!indexedType(dimensionsOf(embedder))) return false;
  const suffix = nearestIndexName('', granularity, embedder).slice('search_vectors_'.length);
  const { rows } = await sql<{ indexed: boolean }>`
    select exists (select 1 from pg_index i where i.indexrelid = to_regclass('search_vectors_' || k.key || ${suffix}) and i.indisvalid) as indexed
    from search_collections k where k.collection_id = ${collectionId}`.execute(db);
  return rows[0]?.indexed ?? false;
}

/**
 * The `depth` rows of a collection's granularity nearest the query vector: (row_seq, similarity),
 * best first: `indexed` (hasNearestIndex), through its HNSW index, run after searchBreadth in its
 * transaction; else by an exact scan of the collection's rows.
 */
export function nearestStatement(schema: string, collectionId: string, granularity: number, vector: QueryVector, depth: number, indexed: boolean): RawBuilder<{ row_seq: string; similarity: number }> {
  const dimensions = vector.values.length;
  const type = indexedType(dimensions);
  const extension = sql.id(schema);
  // The similarity in full precision, whatever the index holds: only the rows it finds are scored.
  const similarity = sql`${extension}.inner_product(embedding, ${vectorLiteral(vector.values)}::${extension}.vector)`;
  const order =
    indexed && type
      ? sql`${indexedExpression(schema, type, dimensions)} operator(${extension}.<#>) ${vectorLiteral(vector.values)}::${extension}.${sql.raw(type)}(${sql.lit(dimensions)})`
      : sql`similarity desc`;
  return sql`select row_seq, ${similarity} as similarity from search_vectors
    where ${ownRows(collectionId, granularity, vector.embedder)} order by ${order} limit ${depth}`;
}

/**
 * How wide the graph search runs, for this transaction: twice the rows asked for (at most
 * pgvector's 1,000), so the 100 candidates a fusion reads are the exact ones or nearly; past it,
 * the scan goes on in order until it has them all (iterative scans).
 */
export const searchBreadth = (depth: number) =>
  sql`select set_config('hnsw.ef_search', ${String(Math.min(1000, 2 * depth))}, true), set_config('hnsw.iterative_scan', 'strict_order', true)`;

/**
 * Rows of a collection's granularity from which it gets an HNSW index. Below, an exact scan is
 * as fast (20,000 random 384-dimension vectors: 14-19 ms exact, 17 ms through the index at
 * ef_search 200), and every vector written into a graph costs its collection's ingestion.
 */
export const INDEXED_FROM = 10_000;

/** Granularities by their code (GRANULARITY_CODES), as search_stats names them. */
const GRANULARITY_NAMES = ['documents', 'pages', 'coarse', 'fine'];

/**
 * The HNSW indexes these collections' rows of `embedder` lack, made once a granularity has
 * INDEXED_FROM rows with the ones being written, before they are (rows already there make the
 * build longer); none for vectors too large for one (indexedType). Made concurrently, so no
 * other collection's writes wait; one another server is making, or that a lock wait stopped, is
 * left for the next batch (its rows are found exactly meanwhile).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function makeNearestIndexes(db: Kysely<any>, schema: string, rows: { collectionId: string; granularity: number }[], embedder: string): Promise<void> {
  const type = indexedType(dimensionsOf(embedder));
  if (!type) return;
  const collectionIds = [...new Set(rows.map((row) => row.collectionId))];
  const { rows: stored } = await sql<{ collection_id: string; granularity: string; rows: string }>`
    select collection_id, granularity, sum(rows) as rows from search_stats where collection_id = any(${collectionIds}::text[]) group by collection_id, granularity`.execute(db);
  const counts = new Map<string, { collectionId: string; granularity: number; rows: number }>();
  for (const row of stored) counts.set(`${row.collection_id} ${GRANULARITY_NAMES.indexOf(row.granularity)}`, { collectionId: row.collection_id, granularity: GRANULARITY_NAMES.indexOf(row.granularity), rows: Number(row.rows) });
  for (const { collectionId, granularity } of rows) {
    const count = counts.get(`${collectionId} ${granularity}`) ?? { collectionId, granularity, rows: 0 };
    count.rows++;
    counts.set(`${collectionId} ${granularity}`, count);
  }
  const wanted = new Map<string, { collectionId: string; granularity: number }>();
  const keys = new Map<string, string | undefined>();
  for (const { collectionId, granularity, rows: count } of counts.values()) {
    if (count < INDEXED_FROM) continue;
    if (!keys.has(collectionId)) keys.set(collectionId, await collectionKey(db, collectionId));
    const key = keys.get(collectionId);
    if (key !== undefined) wanted.set(nearestIndexName(key, granularity, embedder), { collectionId, granularity });
  }
  if (wanted.size === 0) return;
  // An index is invalid while it is being built (by another ingestion loop or server), and after a failed build.
  const { rows: existing } = await sql<{ name: string; usable: boolean }>`
    select c.relname as name, i.indisvalid or exists (select 1 from pg_stat_progress_create_index p where p.index_relid = c.oid) as usable
    from pg_class c join pg_index i on i.indexrelid = c.oid
    where c.relnamespace = current_schema()::regnamespace and c.relname = any(${[...wanted.keys()]}::text[])`.execute(db);
  const usable = new Set(existing.filter((row) => row.usable).map((row) => row.name));
  for (const [name, { collectionId, granularity }] of wanted) {
    if (usable.has(name)) continue;
    try {
      // One left invalid by a failed build is made again.
      if (existing.some((row) => row.name === name)) await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
      await sql`create index concurrently if not exists ${sql.id(name)} on search_vectors
        using hnsw (${indexedExpression(schema, type, dimensionsOf(embedder))} ${sql.id(schema)}.${sql.raw(`${type}_ip_ops`)}) where ${ownRows(collectionId, granularity, embedder)}`.execute(db);
    } catch (error) {
      if (!LEFT_FOR_LATER.includes((error as { code?: string }).code ?? '')) throw error;
    }
  }
}

/** A collection's key (migration 011), made unless it has one; none while it is being deleted. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function collectionKey(db: Kysely<any>, collectionId: string): Promise<string | undefined> {
  const { rows } = await sql<{ key: string }>`
    with made as (insert into search_collections (collection_id) values (${collectionId}) on conflict do nothing returning key)
    select key from made union all select key from search_collections where collection_id = ${collectionId}`.execute(db);
  return rows[0]?.key;
}

/**
 * Drops the HNSW indexes of collections deleted (their key went with them), and with `embedders`
 * those of an embedder none of the collection's rows of that granularity has now (it was
 * re-embedded by another). Found by their names, which hold the key, granularity and embedder.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropUnusedNearestIndexes(db: Kysely<any>, embedders: boolean): Promise<void> {
  const unused = embedders
    ? sql`not exists (
        select 1 from search_collections k join search_vectors v on v.collection_id = k.collection_id
        where k.key = split_part(c.relname, '_', 3)::bigint and v.granularity = split_part(c.relname, '_', 4)::smallint
          and left(md5(v.embedder), 12) = split_part(c.relname, '_', 5))`
    : sql`not exists (select 1 from search_collections k where k.key = split_part(c.relname, '_', 3)::bigint)`;
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'i' and c.relname ~ '^search_vectors_[0-9]+_[0-9]_[0-9a-f]{12}$' and ${unused}`.execute(db);
  for (const { name } of rows) {
    try {
      await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
    } catch (error) {
      if (!LEFT_FOR_LATER.includes((error as { code?: string }).code ?? '')) throw error;
    }
  }
}

/**
 * Errors that leave an index for later: unique_violation and duplicate_table (another server
 * made it at the same moment), lock_not_available (lock_timeout passed waiting for others).
 */
const LEFT_FOR_LATER = ['23505', '42P07', '55P03'];

/** pgvector's text form of a vector. */
export const vectorLiteral = (vector: Float32Array): string => `[${Array.from(vector).join(',')}]`;
