import { type Kysely, sql } from 'kysely';
import { hasPostgresCode, POSTGRES_ERRORS } from '../../db/postgres-errors.ts';

/** A collection's key (migration 011), naming its postings and vectors tables, and whether each exists. */
export interface CollectionKey {
  key: number;
  hasPostings: boolean;
  hasVectors: boolean;
}

/**
 * The keys of these collections, made for those without one: a key is made with its collection
 * (createCollection), and here for one without (a crash between the two, or a collection added by
 * a server of an earlier version). A collection deleted meanwhile gets none.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function collectionKeys(db: Kysely<any>, collectionIds: string[]): Promise<Map<string, CollectionKey>> {
  if (collectionIds.length === 0) return new Map();
  await sql`
    insert into search_collections (collection_id) select c.id from collections c
    where c.id = any(${collectionIds}::text[]) and not exists (select 1 from search_collections k where k.collection_id = c.id)
    on conflict do nothing`
    .execute(db)
    .catch((error: unknown) => {
      if (!hasPostgresCode(error, POSTGRES_ERRORS.foreignKeyViolation)) throw error;
    });
  const { rows } = await sql<{ collection_id: string; key: string; postings: boolean; vectors: boolean }>`
    select collection_id, key, to_regclass('search_postings_' || key) is not null as postings, to_regclass('search_vectors_' || key) is not null as vectors
    from search_collections where collection_id = any(${collectionIds}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.collection_id, { key: Number(row.key), hasPostings: row.postings, hasVectors: row.vectors }]));
}
