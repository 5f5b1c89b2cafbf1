import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, DB } from '../db/schema.ts';
import { searchIndex } from '../db/search/index.ts';
import { nowIso } from './clock.ts';
import { Conflict, NotFound } from './errors.ts';
import type { FileStore } from './file-store.ts';
import type { ProviderActor } from './provider-actor.ts';
import { addDocumentEvent, type CollectionRef } from './usage-events.ts';

export const collectionMessages = {
  exists: 'Collection already exists.',
  notFound: 'Collection not found.',
} as const;

/** The collection of this name in the actor's organization, or 404. */
export async function requireCollection(db: Kysely<DB>, organizationId: string, name: string): Promise<CollectionRef> {
  const row = await db
    .selectFrom('collections')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) throw new NotFound(collectionMessages.notFound);
  return { organizationId, collectionId: row.id, collectionName: row.name };
}

/**
 * How long a query trusts a collection found by name without asking again. Deleting a collection
 * (or its organization) on this server forgets them all at once; one deleted by another server of
 * the installation is found gone within this time (meanwhile its queries find nothing: its index
 * went with it). Only collections found are remembered, so one just added is found at once.
 */
export const COLLECTION_LOOKUP_TTL_MS = 1000;
const FOUND_COLLECTIONS_MAX = 10_000;
const foundCollections = new WeakMap<Database, Map<string, { collection: CollectionRef; until: number }>>();

/** requireCollection for queries, remembering what it found for COLLECTION_LOOKUP_TTL_MS (a query's second lookup of its own). */
export async function findQueriedCollection(database: Database, organizationId: string, name: string): Promise<CollectionRef> {
  let found = foundCollections.get(database);
  if (!found) {
    found = new Map();
    foundCollections.set(database, found);
  }
  const key = `${organizationId}\u0000${name}`;
  const now = performance.now();
  const known = found.get(key);
  if (known && known.until > now) return known.collection;
  const collection = await requireCollection(database.db, organizationId, name);
  if (found.size >= FOUND_COLLECTIONS_MAX) found.clear();
  found.set(key, { collection, until: now + COLLECTION_LOOKUP_TTL_MS });
  return collection;
}

const forgetCollections = (database: Database) => foundCollections.get(database)?.clear();

export async function addCollection(database: Database, actor: Pick<ProviderActor, 'organizationId'>, input: { collection_name: string }) {
  const { db } = database;
  const existing = await db
    .selectFrom('collections')
    .select('id')
    .where('organization_id', '=', actor.organizationId)
    .where('name', '=', input.collection_name)
    .executeTakeFirst();
  if (existing) throw new Conflict(collectionMessages.exists);
  const id = randomUUID();
  try {
    await db.insertInto('collections').values({ id, organization_id: actor.organizationId, name: input.collection_name, created_at: nowIso() }).execute();
  } catch (error) {
    // Two adds of one name at once: the unique constraint decides, the loser gets 409.
    if (/unique|duplicate/i.test(String((error as Error).message))) throw new Conflict(collectionMessages.exists);
    throw error;
  }
  await searchIndex(database).createCollection(id);
  return { message: 'Success!' };
}

export async function listCollections({ db }: Database, actor: Pick<ProviderActor, 'organizationId'>) {
  const rows = await db.selectFrom('collections').select('name').where('organization_id', '=', actor.organizationId).orderBy('name').execute();
  return { collection_names: rows.map((row) => row.name) };
}

/** Deletes the collection with its documents, pages, chunks and index, then its unshared files. */
export async function deleteCollection(database: Database, actor: ProviderActor, input: { collection_name: string }) {
  const { hashes, collectionId } = await database.db.transaction().execute(async (trx) => {
    const collection = await requireCollection(trx, actor.organizationId, input.collection_name);
    const documents = await trx
      .selectFrom('documents')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('size').as('bytes')])
      .where('collection_id', '=', collection.collectionId)
      .executeTakeFirstOrThrow();
    const files = await trx.selectFrom('documents').select('file_hash').distinct().where('collection_id', '=', collection.collectionId).execute();
    if (Number(documents.count) > 0) {
      await addDocumentEvent(trx, collection, 'deleted', { count: Number(documents.count), fileBytes: Number(documents.bytes ?? 0) });
    }
    await trx.deleteFrom('collections').where('id', '=', collection.collectionId).execute();
    forgetCollections(database);
    return { hashes: files.map((row) => row.file_hash), collectionId: collection.collectionId };
  });
  // Again once committed: a query in between must not have remembered it.
  forgetCollections(database);
  await searchIndex(database).dropCollections([collectionId]);
  await actor.files.release(database, hashes);
  return { message: 'Success!' };
}

/** Deletes every collection of an organization (its rows cascade), then the raw files nobody else shares. */
export async function deleteCollectionsOf(database: Database, files: FileStore, organizationId: string): Promise<void> {
  const rows = await database.db.selectFrom('documents').select('file_hash').distinct().where('organization_id', '=', organizationId).execute();
  const collections = await database.db.selectFrom('collections').select('id').where('organization_id', '=', organizationId).execute();
  await database.db.deleteFrom('collections').where('organization_id', '=', organizationId).execute();
  forgetCollections(database);
  await searchIndex(database).dropCollections(collections.map((row) => row.id));
  await files.release(database, rows.map((row) => row.file_hash));
}
