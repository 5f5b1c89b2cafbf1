import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { filterSql } from './filter.ts';
import type { Granularity, SearchRequest } from './types.ts';
import { dropUnusedNearestIndexes, hasNearestIndex, makeNearestIndexes, nearestStatement, searchBreadth, vectorLiteral } from './postgres-hnsw.ts';
import { EMBED_CHARS, embedderKey, embedDocuments, FUSION_DEPTH, type VectorEmbedder } from './vectors.ts';

/**
 * PostgreSQL's vectors (migration 021): one table, `search_vectors`, of pgvector `vector`s keyed
 * by collection, granularity and row, searched through an HNSW index per collection, granularity
 * and embedder (postgres-hnsw.ts), or, filtered, by an exact scan of the collection's rows whose
 * document passes. Absent when the database lacks the extension: search stays lexical.
 */
export interface PostgresVectors {
  /** Whether the database has the vectors table (pgvector installed when it migrated). */
  available(): Promise<boolean>;
  /** Embeds these documents' rows and writes their vectors in place of older ones. */
  index(documentIds: string[]): Promise<void>;
  /**
   * One batch of re-embedding: indexed documents without vectors, or with another embedder's,
   * embedded again (index); false when none is left. Once none is, the server looks no more:
   * documents indexed later get the embedder's vectors as they are indexed.
   */
  reembedStep(): Promise<boolean>;
  /** Drops the HNSW indexes of collections deleted, and with `embedders` of embedders no longer used (postgres-hnsw.ts). */
  dropUnusedIndexes(embedders: boolean): Promise<void>;
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
  astral: number;
}

export function postgresVectors(db: Kysely<DB>, embedder: VectorEmbedder | null): PostgresVectors {
  // pgvector's schema (its type and functions named in full: it may be outside the search path), or null without the table.
  let extension: Promise<string | null> | null = null;
  const extensionSchema = () =>
    (extension ??= sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'vector' and to_regclass('search_vectors') is not null`
      .execute(db)
      .then(({ rows }) => rows[0]?.schema ?? null));
  let reembedded = false;
  const vectors: PostgresVectors = {
    available: async () => (await extensionSchema()) !== null,
    async dropUnusedIndexes(embedders) {
      if ((await extensionSchema()) !== null) await dropUnusedNearestIndexes(db, embedders);
    },
    async reembedStep() {
      if (!embedder || reembedded || (await extensionSchema()) === null) return false;
      const current = `${embedder.name}:`;
      const { rows } = await sql<{ id: string }>`
        select d.id from documents d where d.index_status = 'indexed'
          and (not exists (select 1 from search_vectors v where v.document_seq = d.seq)
            or exists (select 1 from search_vectors v where v.document_seq = d.seq and left(v.embedder, ${current.length}) <> ${current}))
        limit ${REEMBED_DOCUMENTS}`.execute(db);
      reembedded = rows.length === 0;
      if (!reembedded) await vectors.index(rows.map((row) => row.id));
      // All re-embedded: the indexes of the embedders replaced go.
      else await vectors.dropUnusedIndexes(true);
      return !reembedded;
    },
    async index(documentIds) {
      const schema = embedder && documentIds.length > 0 ? await extensionSchema() : null;
      if (!embedder || schema === null) return;
      const bounded = (r: string) =>
        sql.raw(`case when d.text_astral = 1 then substr(d.text, 1, ${r}.end_index) else substr(d.text, ${r}.start_index + 1, least(${r}.end_index - ${r}.start_index, ${EMBED_CHARS})) end`);
      const { rows } = await sql<TextRow>`
        select d.collection_id, 0 as granularity, d.seq as row_seq, d.seq as document_seq, left(coalesce(d.text, ''), ${EMBED_CHARS}) as content, 0 as start, 0 as "end", 0 as astral
        from documents d where d.id = any(${documentIds}::text[])
        union all
        select d.collection_id, 1, p.seq, d.seq, ${bounded('p')}, p.start_index, p.end_index, d.text_astral
        from pages p join documents d on d.id = p.document_id where p.document_id = any(${documentIds}::text[])
        union all
        select d.collection_id, case c.granularity when 'coarse' then 2 else 3 end, c.seq, d.seq, ${bounded('c')}, c.start_index, c.end_index, d.text_astral
        from chunks c join documents d on d.seq = c.document_seq where d.id = any(${documentIds}::text[])`.execute(db);
      const texts = rows.map((row) => (row.astral ? (row.content ?? '').slice(row.start, row.end) : (row.content ?? '')).slice(0, EMBED_CHARS));
      const vectors = await embedDocuments(embedder, texts);
      const key = vectors[0] ? embedderKey(embedder, vectors[0].length) : '';
      const documentSeqs = [...new Set(rows.map((row) => row.document_seq))];
      if (rows.length > 0) await makeNearestIndexes(db, schema, rows.map((row) => ({ collectionId: row.collection_id, granularity: row.granularity })), key);
      await db.transaction().execute(async (trx) => {
        await sql`delete from search_vectors where document_seq = any(${documentSeqs}::bigint[])`.execute(trx);
        if (rows.length === 0) return;
        // Only rows whose document is still there (deleted meanwhile: its trigger has run).
        await sql`
          insert into search_vectors (collection_id, granularity, row_seq, document_seq, embedder, embedding)
          select v.collection_id, v.granularity, v.row_seq, v.document_seq, ${key}, v.embedding::${sql.id(schema)}.vector
          from unnest(${rows.map((row) => row.collection_id)}::text[], ${rows.map((row) => row.granularity)}::smallint[], ${rows.map((row) => row.row_seq)}::bigint[],
                      ${rows.map((row) => row.document_seq)}::bigint[], ${vectors.map(vectorLiteral)}::text[]) as v(collection_id, granularity, row_seq, document_seq, embedding)
          where exists (select 1 from documents d where d.seq = v.document_seq)
          on conflict (collection_id, granularity, row_seq) do update set embedder = excluded.embedder, embedding = excluded.embedding, document_seq = excluded.document_seq`.execute(trx);
      });
    },
    async nearest<Row>(granularity: Granularity, codes: Record<Granularity, number>, request: SearchRequest, columns: RawBuilder<unknown>, join: RawBuilder<unknown>) {
      const schema = await extensionSchema();
      if (schema === null) return [];
      const depth = Math.max(request.k, FUSION_DEPTH);
      if (request.filter) {
        // Filtered: an exact scan of the vectors whose document passes (an HNSW scan would drop
        // the rows the filter fails after finding them, and find too few under a selective one).
        const { values, embedder: key } = request.vector!;
        const extension = sql.id(schema);
        const similarity = sql`${extension}.inner_product(v.embedding, ${vectorLiteral(values)}::${extension}.vector)`;
        const nearestRows = sql`select v.row_seq, ${similarity} as similarity from search_vectors v join documents d on d.seq = v.document_seq
              where v.collection_id = ${request.collectionId} and v.granularity = ${codes[granularity]} and v.embedder = ${key} and ${filterSql(request.filter)}
              order by similarity desc limit ${depth}`;
        return (await sql<Row>`select ${columns}, t.similarity as weight from (${nearestRows}) t ${join}`.execute(db)).rows;
      }
      const indexed = await hasNearestIndex(db, request.collectionId, codes[granularity], request.vector!.embedder);
      const nearestRows = nearestStatement(schema, request.collectionId, codes[granularity], request.vector!, depth, indexed);
      if (!indexed) return (await sql<Row>`select ${columns}, t.similarity as weight from (${nearestRows}) t ${join}`.execute(db)).rows;
      return db.transaction().execute(async (trx) => {
        await searchBreadth(depth).execute(trx);
        return (await sql<Row>`select ${columns}, t.similarity as weight from (${nearestRows}) t ${join}`.execute(trx)).rows;
      });
    },
  };
  return vectors;
}

/** Documents a re-embedding step embeds again (each with its pages and snippets). */
const REEMBED_DOCUMENTS = 8;

