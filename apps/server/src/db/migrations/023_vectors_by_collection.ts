import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { createNearestIndex, nearestIndexName, vectorsTable } from '../../engine/search/postgres-hnsw.ts';
import { createVectorsTable } from '../../engine/search/postgres-vectors.ts';

/**
 * PostgreSQL: each collection's vectors in a table of their own (engine/search/postgres-hnsw.ts,
 * vectorsTable), as its postings are (migration 019), so a search's plan and an insert's cost
 * depend on its collection's vectors and HNSW indexes only. The vectors move collection by
 * collection in the migration's transaction, their HNSW indexes are made again on their new table
 * (not concurrently: nothing else writes it yet), and the trigger that deletes a deleted
 * document's vectors finds them in its collection's table. Nothing to do without pgvector, or on
 * SQLite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const schema = await vectorSchema(db, sql`to_regclass('search_vectors') is not null`);
  if (schema === null) return;
  const { rows: indexes } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'i' and relname ~ '^search_vectors_[0-9]+_[0-9]_[0-9a-f]{12}$'`.execute(db);
  const { rows: collections } = await sql<{ key: string; collection_id: string }>`
    select k.key, k.collection_id from search_collections k where exists (select 1 from search_vectors v where v.collection_id = k.collection_id) order by k.key`.execute(db);
  for (const { key, collection_id: collectionId } of collections) {
    await createVectorsTable(db, schema, Number(key));
    await sql`
      insert into ${vectorsTable(key)} (row_seq, document_seq, granularity, embedder, embedding)
      select row_seq, document_seq, granularity, embedder, embedding from search_vectors where collection_id = ${collectionId}
      order by granularity, row_seq`.execute(db);
  }
  // Its partial indexes go with it, and free their names for the collections' tables.
  await sql`drop table search_vectors`.execute(db);
  for (const { name } of indexes) {
    const [key, granularity] = name.split('_').slice(2).map(Number);
    if (!collections.some((collection) => Number(collection.key) === key)) continue;
    const { rows: embedders } = await sql<{ embedder: string }>`select distinct embedder from ${vectorsTable(key!)} where granularity = ${granularity}`.execute(db);
    const embedder = embedders.find((row) => nearestIndexName(key!, granularity!, row.embedder) === name)?.embedder;
    if (embedder !== undefined) await createNearestIndex(db, schema, key!, granularity!, embedder, { concurrently: false });
  }
  await sql`
    create or replace function search_vectors_removed() returns trigger language plpgsql as $$
    declare
      collection_key bigint;
      seqs bigint[];
    begin
      for collection_key, seqs in
        select k.key, array_agg(r.seq) from removed r join search_collections k on k.collection_id = r.collection_id group by k.key
      loop
        -- None when nothing of the collection was embedded; gone with a collection deleted first.
        if to_regclass('search_vectors_' || collection_key) is not null then
          execute format('delete from %I where document_seq = any($1)', 'search_vectors_' || collection_key) using seqs;
        end if;
      end loop;
      return null;
    end $$`.execute(db);
}

/** Back to one table for all collections (migration 021), each HNSW index made again on it with its collection in its predicate. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const schema = await vectorSchema(db, sql`to_regprocedure('search_vectors_removed()') is not null`);
  if (schema === null) return;
  await sql`
    create table search_vectors (
      collection_id text not null,
      granularity smallint not null,
      row_seq bigint not null,
      document_seq bigint not null,
      embedder text not null,
      embedding ${sql.id(schema)}.vector not null,
      primary key (collection_id, granularity, row_seq)
    )`.execute(db);
  await sql`create index search_vectors_document on search_vectors (document_seq)`.execute(db);
  const { rows: tables } = await sql<{ name: string; collection_id: string | null }>`
    select c.relname as name, k.collection_id from pg_class c left join search_collections k on 'search_vectors_' || k.key = c.relname
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname ~ '^search_vectors_[0-9]+$'`.execute(db);
  const definitions: string[] = [];
  for (const { name, collection_id: collectionId } of tables) {
    if (collectionId !== null) {
      await sql`
        insert into search_vectors (collection_id, granularity, row_seq, document_seq, embedder, embedding)
        select ${collectionId}, granularity, row_seq, document_seq, embedder, embedding from ${sql.table(name)}`.execute(db);
      // Its HNSW indexes as they were: on the one table, the collection first in their predicate.
      const { rows: indexes } = await sql<{ definition: string }>`
        select pg_get_indexdef(i.indexrelid) as definition from pg_index i where i.indrelid = ${name}::regclass and i.indexrelid::regclass::text ~ '_[0-9]_[0-9a-f]{12}$'`.execute(db);
      const collection = `(collection_id = '${collectionId.replaceAll("'", "''")}'::text) AND `;
      for (const { definition } of indexes) definitions.push(definition.replace(/ ON \S+ USING /, ' ON search_vectors USING ').replace(' WHERE ((', ` WHERE (${collection}(`));
    }
    await sql`drop table ${sql.table(name)}`.execute(db);
  }
  for (const definition of definitions) await sql.raw(definition).execute(db);
  await sql`
    create or replace function search_vectors_removed() returns trigger language plpgsql as $$
    begin
      delete from search_vectors where document_seq in (select seq from removed);
      return null;
    end $$`.execute(db);
}

/** pgvector's schema when `present` (the layout a direction starts from) holds, else null. */
async function vectorSchema(db: Kysely<unknown>, present: ReturnType<typeof sql>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector' and ${present}`.execute(db);
  return rows[0]?.schema ?? null;
}
