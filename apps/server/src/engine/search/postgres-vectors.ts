import { type Kysely, type RawBuilder, sql } from 'kysely';
import { hasPostgresCode, madeMeanwhile, POSTGRES_ERRORS } from '../../db/postgres-errors.ts';
import type { DB } from '../../db/schema.ts';
import { filterSql } from './filter.ts';
import { collectionKeys } from './postgres-keys.ts';
import { contentFromExpression, openingExpression, rowOpeningExpression, slicedContent } from './slices.ts';
import type { Granularity, SearchRequest } from './types.ts';
import { dropUnusedNearestIndexes, makeNearestIndexes, nearestStatement, nearestTable, searchBreadth, vectorLiteral, vectorsTable } from './postgres-hnsw.ts';
import { EMBED_CHARS, embedderKey, embedDocuments, FUSION_DEPTH, type VectorEmbedder } from './vectors.ts';

/**
 * PostgreSQL's vectors (migrations 021 and 023): a table of pgvector `vector`s per collection
 * (vectorsTable), keyed by granularity and row, searched through an HNSW index per granularity and
 * embedder on it (postgres-hnsw.ts), or, filtered, by an exact scan of the rows whose document
 * passes. Absent when the database lacks the extension: search stays lexical.
 */
export interface PostgresVectors {
  /** Whether the database keeps vectors (pgvector installed when it migrated). */
  available(): Promise<boolean>;
  /** Embeds these documents' rows and writes their vectors in place of older ones. */
  index(documentIds: string[]): Promise<void>;
  /**
   * One batch of re-embedding: indexed documents without vectors, or with another embedder's,
   * embedded again (index); false when none is left. Once none is, the server looks no more:
   * documents indexed later get the embedder's vectors as they are indexed.
   */
  reembedStep(): Promise<boolean>;
  /** The rows nearest the request's vector (columns, plus `weight`, the similarity), best first. */
  nearest<Row>(granularity: Granularity, codes: Record<Granularity, number>, request: SearchRequest, columns: RawBuilder<unknown>, join: RawBuilder<unknown>): Promise<Row[]>;
}

interface TextRow {
  collection_id: string;
  granularity: number;
  row_seq: string;
  document_seq: string;
  content: string | null;
  start: number;
  end: number;
  contentFrom: number;
}

export function postgresVectors(db: Kysely<DB>, embedder: VectorEmbedder | null): PostgresVectors {
  // pgvector's schema (its type and functions named in full: it may be outside the search path), or
  // null unless migration 021 found the extension (it made the trigger that deletes documents' vectors).
  let extension: Promise<string | null> | null = null;
  const extensionSchema = () =>
    (extension ??= sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'vector' and to_regprocedure('search_vectors_removed()') is not null`
      .execute(db)
      .then(({ rows }) => rows[0]?.schema ?? null));
  let reembedded = false;
  // Re-embedding looks through the collections in key order, from this key on.
  let reembedFrom = 0;
  const vectors: PostgresVectors = {
    available: async () => (await extensionSchema()) !== null,
    async reembedStep() {
      if (!embedder || reembedded || (await extensionSchema()) === null) return false;
      // A step looks through a few collections at most, and embeds one batch of documents.
      for (let looked = 0; looked < REEMBED_COLLECTIONS; looked++) {
        const collection = await collectionFrom(db, reembedFrom);
        if (!collection) {
          reembedded = true;
          // All re-embedded: the indexes of the embedders replaced go.
          await dropUnusedNearestIndexes(db);
          return false;
        }
        const documentIds = await toReembed(db, collection, `${embedder.name}:`);
        if (documentIds.length > 0) {
          await vectors.index(documentIds);
          return true;
        }
        reembedFrom = collection.key + 1;
      }
      return true;
    },
    async index(documentIds) {
      const schema = embedder && documentIds.length > 0 ? await extensionSchema() : null;
      if (!embedder || schema === null) return;
      const rows = await rowsToEmbed(db, documentIds);
      const texts = rows.map((row) => slicedContent(row.content, row.start, row.end, row.contentFrom).slice(0, EMBED_CHARS));
      const embeddings = await embedDocuments(embedder, texts);
      const key = embeddings[0] ? embedderKey(embedder, embeddings[0].length) : '';
      const tables = await createVectorsTablesOf(db, schema, [...new Set(rows.map((row) => row.collection_id))]);
      const indexed = rows.flatMap((row) => (tables.has(row.collection_id) ? [{ collectionId: row.collection_id, key: tables.get(row.collection_id)!, granularity: row.granularity }] : []));
      await makeNearestIndexes(db, schema, indexed, key);
      await db.transaction().execute(async (trx) => {
        // Locked against deletion until this transaction ends, as for postings (postgres.ts
        // lockDocuments): a deletion comes first (its documents are left out here) or waits, and
        // its trigger then deletes what this transaction wrote.
        const { rows: locked } = await sql<{ seq: string; collection_id: string }>`
          select seq, collection_id from documents where id = any(${documentIds}::text[]) for key share`.execute(trx);
        for (const [collectionId, collectionKey] of tables) {
          const seqs = new Set(locked.filter((row) => row.collection_id === collectionId).map((row) => String(row.seq)));
          const written = rows.flatMap((row, i) => (seqs.has(String(row.document_seq)) ? [{ row, embedding: embeddings[i]! }] : []));
          if (seqs.size > 0) await writeVectors(trx, schema, collectionKey, [...seqs], written, key);
        }
      });
    },
    async nearest<Row>(granularity: Granularity, codes: Record<Granularity, number>, request: SearchRequest, columns: RawBuilder<unknown>, join: RawBuilder<unknown>) {
      const schema = await extensionSchema();
      return schema === null ? [] : nearestRows<Row>(db, schema, codes[granularity], request, columns, join);
    },
  };
  return vectors;
}

/** The rows of a collection's granularity (`code`) nearest the request's vector: its `columns`, joined by `join` to the nearest, and their similarity as `weight`. */
async function nearestRows<Row>(db: Kysely<DB>, schema: string, code: number, request: SearchRequest, columns: RawBuilder<unknown>, join: RawBuilder<unknown>): Promise<Row[]> {
  const depth = Math.max(request.k, FUSION_DEPTH);
  const vector = request.vector!;
  const table = await nearestTable(db, request.collectionId, code, vector.embedder);
  // No vectors table: nothing of the collection embedded yet.
  if (!table) return [];
  try {
    if (request.filter) {
      // Filtered: an exact scan of the vectors whose document passes (an HNSW scan would drop
      // the rows the filter fails after finding them, and find too few under a selective one).
      const extension = sql.id(schema);
      const similarity = sql`${extension}.inner_product(v.embedding, ${vectorLiteral(vector.values)}::${extension}.vector)`;
      const nearest = sql`select v.row_seq, ${similarity} as similarity from ${vectorsTable(table.key)} v join documents d on d.seq = v.document_seq
            where v.granularity = ${code} and v.embedder = ${vector.embedder} and ${filterSql(request.filter)}
            order by similarity desc limit ${depth}`;
      return (await sql<Row>`select ${columns}, t.similarity as weight from (${nearest}) t ${join}`.execute(db)).rows;
    }
    const nearest = nearestStatement(schema, table.key, code, vector, depth, table.indexed);
    if (!table.indexed) return (await sql<Row>`select ${columns}, t.similarity as weight from (${nearest}) t ${join}`.execute(db)).rows;
    return await db.transaction().execute(async (trx) => {
      await searchBreadth(depth).execute(trx);
      return (await sql<Row>`select ${columns}, t.similarity as weight from (${nearest}) t ${join}`.execute(trx)).rows;
    });
  } catch (error) {
    // Its table dropped with it (another server deleted the collection meanwhile): nothing to find.
    if (!hasPostgresCode(error, POSTGRES_ERRORS.undefinedTable)) throw error;
    return [];
  }
}

/** These documents' rows (the documents, pages and snippets), with the text each is embedded by. */
async function rowsToEmbed(db: Kysely<DB>, documentIds: string[]): Promise<TextRow[]> {
  const bounded = (r: string) => sql.raw(rowOpeningExpression('d', r, EMBED_CHARS));
  const { rows } = await sql<TextRow>`
    select d.collection_id, 0 as granularity, d.seq as row_seq, d.seq as document_seq, coalesce(${sql.raw(openingExpression('d', EMBED_CHARS))}, '') as content, 0 as start, ${sql.raw(String(EMBED_CHARS))} as "end", 0 as "contentFrom"
    from documents d where d.id = any(${documentIds}::text[])
    union all
    select d.collection_id, 1, p.seq, d.seq, ${bounded('p')}, p.start_index, p.end_index, ${sql.raw(contentFromExpression('d', 'p'))}
    from pages p join documents d on d.id = p.document_id where p.document_id = any(${documentIds}::text[])
    union all
    select d.collection_id, case c.granularity when 'coarse' then 2 else 3 end, c.seq, d.seq, ${bounded('c')}, c.start_index, c.end_index, ${sql.raw(contentFromExpression('d', 'c'))}
    from chunks c join documents d on d.seq = c.document_seq where d.id = any(${documentIds}::text[])`.execute(db);
  return rows;
}

/**
 * A collection's vectors table unless it has one: fixed-width columns first (no alignment
 * padding in each row); the document's index serves reindexing and deletion.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createVectorsTable(db: Kysely<any>, schema: string, collectionKey: number): Promise<void> {
  await sql`
    create table if not exists ${vectorsTable(collectionKey)} (
      row_seq bigint not null,
      document_seq bigint not null,
      granularity smallint not null,
      embedder text not null,
      embedding ${sql.id(schema)}.vector not null,
      primary key (granularity, row_seq)
    )`.execute(db);
  await sql`create index if not exists ${sql.id(`search_vectors_${collectionKey}_document`)} on ${vectorsTable(collectionKey)} (document_seq)`.execute(db);
}

/**
 * The vectors tables (and keys) of these collections, made unless they have them, each in a
 * transaction of its own before the indexing one (two indexing transactions making one table
 * together would have the second fail once the first commits); by collection id. A collection
 * being deleted has none, and its documents are gone by the time the vectors are written.
 */
async function createVectorsTablesOf(db: Kysely<DB>, schema: string, collectionIds: string[]): Promise<Map<string, number>> {
  const keys = await collectionKeys(db, collectionIds);
  for (const { key } of [...keys.values()].filter((key) => !key.hasVectors)) {
    try {
      await createVectorsTable(db, schema, key);
    } catch (error) {
      // unique_violation or duplicate_table: made by another server at the same moment.
      if (!madeMeanwhile(error)) throw error;
    }
  }
  return new Map([...keys].map(([collectionId, { key }]) => [collectionId, key]));
}

/** A collection's vectors of these documents (`seqs`), written in place of their older ones. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function writeVectors(trx: Kysely<any>, schema: string, collectionKey: number, seqs: string[], written: { row: TextRow; embedding: Float32Array }[], embedder: string): Promise<void> {
  const table = vectorsTable(collectionKey);
  await sql`delete from ${table} where document_seq = any(${seqs}::bigint[])`.execute(trx);
  if (written.length === 0) return;
  await sql`
    insert into ${table} (granularity, row_seq, document_seq, embedder, embedding)
    select v.granularity, v.row_seq, v.document_seq, ${embedder}, v.embedding::${sql.id(schema)}.vector
    from unnest(${written.map(({ row }) => row.granularity)}::smallint[], ${written.map(({ row }) => row.row_seq)}::bigint[],
                ${written.map(({ row }) => row.document_seq)}::bigint[], ${written.map(({ embedding }) => vectorLiteral(embedding))}::text[]) as v(granularity, row_seq, document_seq, embedding)
    -- Rows another transaction (re-embedding beside ingestion) wrote since this one's delete.
    on conflict (granularity, row_seq) do update set embedder = excluded.embedder, embedding = excluded.embedding, document_seq = excluded.document_seq`.execute(trx);
}

/** The first collection from this key on, with whether it has a vectors table; null past the last. */
async function collectionFrom(db: Kysely<DB>, fromKey: number): Promise<{ id: string; key: number; hasTable: boolean } | null> {
  const { rows } = await sql<{ id: string; key: string; has_table: boolean }>`
    select collection_id as id, key, to_regclass('search_vectors_' || key) is not null as has_table from search_collections where key >= ${fromKey} order by key limit 1`.execute(db);
  return rows[0] ? { id: rows[0].id, key: Number(rows[0].key), hasTable: rows[0].has_table } : null;
}

/** A batch of a collection's indexed documents whose vectors are missing, or not all of the `current` embedder (a prefix of its keys). */
async function toReembed(db: Kysely<DB>, collection: { id: string; key: number; hasTable: boolean }, current: string): Promise<string[]> {
  const table = vectorsTable(collection.key);
  const stale = collection.hasTable
    ? sql`and (not exists (select 1 from ${table} v where v.document_seq = d.seq)
        or exists (select 1 from ${table} v where v.document_seq = d.seq and left(v.embedder, ${current.length}) <> ${current}))`
    : sql``;
  const { rows } = await sql<{ id: string }>`
    select d.id from documents d where d.collection_id = ${collection.id} and d.index_status = 'indexed' ${stale} limit ${REEMBED_DOCUMENTS}`.execute(db);
  return rows.map((row) => row.id);
}

/** Documents a re-embedding step embeds again (each with its pages and snippets). */
const REEMBED_DOCUMENTS = 8;

/** Collections a re-embedding step looks through for documents to embed again. */
const REEMBED_COLLECTIONS = 64;
