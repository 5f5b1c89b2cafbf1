import { randomUUID } from 'node:crypto';
import { setImmediate as servingRequests } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database, DB } from '../db/schema.ts';
import type { EngineServices } from '../engine/engine.ts';
import { nowIso } from '../clock.ts';
import { Conflict, NotFound } from './errors.ts';
import { type Lookups, lookups } from './lookups.ts';
import type { FileStore } from '../file-store.ts';
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

/** The collections a server found lately, by organization and name (lookups.ts). */
export const createFoundCollections = (): Lookups<CollectionRef> => lookups<CollectionRef>(COLLECTION_LOOKUP_TTL_MS);

/** requireCollection for queries, remembering what it found for COLLECTION_LOOKUP_TTL_MS (a query's second lookup of its own). */
export async function findQueriedCollection(database: Database, { organizationId, foundCollections }: Pick<ProviderActor, 'organizationId' | 'foundCollections'>, name: string): Promise<CollectionRef> {
  const key = `${organizationId}\u0000${name}`;
  const known = foundCollections.get(key);
  if (known) return known;
  const collection = await requireCollection(database.db, organizationId, name);
  foundCollections.set(key, collection);
  return collection;
}

export async function addCollection(database: Database, engine: EngineServices, actor: Pick<ProviderActor, 'organizationId'>, input: { collection_name: string }) {
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
  await engine.search.createCollection(id);
  return { message: 'Success!' };
}

export async function listCollections({ db }: Database, actor: Pick<ProviderActor, 'organizationId'>) {
  const rows = await db.selectFrom('collections').select('name').where('organization_id', '=', actor.organizationId).orderBy('name').execute();
  return { collection_names: rows.map((row) => row.name) };
}

/**
 * Deletes the collection with its documents, pages, chunks and index, then its unshared files.
 * Its documents go a few at a time (deleteDocumentsOf), the collection itself last, with whatever
 * was added to it meanwhile.
 */
export async function deleteCollection(database: Database, engine: EngineServices, actor: ProviderActor, input: { collection_name: string }) {
  const collection = await requireCollection(database.db, actor.organizationId, input.collection_name);
  await deleteDocumentsOf(database, engine, actor.files, collection);
  const rest = await database.db.transaction().execute(async (trx) => {
    // Deleted meanwhile by another request: 404, as for a collection never there.
    await requireCollection(trx, actor.organizationId, input.collection_name);
    const added = await deleteBatch(trx, collection, null);
    await trx.deleteFrom('collections').where('id', '=', collection.collectionId).execute();
    actor.foundCollections.clear();
    return added;
  });
  // Again once committed: a query in between must not have remembered it.
  actor.foundCollections.clear();
  await engine.search.dropCollections([collection.collectionId]);
  await actor.files.release(database, rest);
  return { message: 'Success!' };
}

/**
 * Documents deleted per transaction (their snippets before them, deleteSnippetsOf): one
 * transaction for a whole collection held SQLite's write lock and the HTTP thread (its statements
 * are synchronous) for as long as it took. Requests are served between batches, at the price of a
 * longer deletion in all.
 */
const DELETE_DOCUMENTS = 256;

/**
 * Deletes a collection's documents a batch at a time, each batch counted in usage and its unshared
 * files released as it goes (a crash midway leaves a smaller collection, counted right). Only those
 * there when it began: uploads that go on cannot keep it going; the caller deletes the rest.
 */
async function deleteDocumentsOf(database: Database, engine: EngineServices, files: FileStore, collection: CollectionRef): Promise<void> {
  const { db } = database;
  const { last } = await db.selectFrom('documents').select((eb) => eb.fn.max('seq').as('last')).where('collection_id', '=', collection.collectionId).executeTakeFirstOrThrow();
  if (last === null) return;
  for (;;) {
    // No order: the first of the collection's index are those not yet deleted.
    const ids = (
      await db.selectFrom('documents').select('id').where('collection_id', '=', collection.collectionId).where('seq', '<=', last).limit(DELETE_DOCUMENTS).execute()
    ).map((row) => row.id);
    if (ids.length === 0) return;
    await engine.search.deleteSnippetsOf(ids);
    await files.release(database, await db.transaction().execute((trx) => deleteBatch(trx, collection, ids)));
    await servingRequests();
  }
}

/**
 * Deletes these documents of the collection (null: all it has) with their rows, and counts them
 * in usage; their files' hashes.
 */
async function deleteBatch(trx: Kysely<DB>, collection: CollectionRef, ids: string[] | null): Promise<string[]> {
  let query = trx.deleteFrom('documents').where('collection_id', '=', collection.collectionId);
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query.returning(['file_hash', 'size']).execute();
  if (rows.length > 0) await addDocumentEvent(trx, collection, 'deleted', { count: rows.length, fileBytes: rows.reduce((total, row) => total + Number(row.size), 0) });
  return rows.map((row) => row.file_hash);
}

/** Deletes every collection of an organization (each a batch of documents at a time), then the raw files nobody else shares. */
export async function deleteCollectionsOf(
  database: Database,
  engine: EngineServices,
  { files, foundCollections }: { files: FileStore; foundCollections: Lookups<CollectionRef> },
  organizationId: string,
): Promise<void> {
  const collections = await database.db.selectFrom('collections').select(['id', 'name']).where('organization_id', '=', organizationId).execute();
  for (const { id, name } of collections) await deleteDocumentsOf(database, engine, files, { organizationId, collectionId: id, collectionName: name });
  // Documents added meanwhile go with their collections.
  const rest = await database.db.selectFrom('documents').select('file_hash').distinct().where('organization_id', '=', organizationId).execute();
  await database.db.deleteFrom('collections').where('organization_id', '=', organizationId).execute();
  foundCollections.clear();
  await engine.search.dropCollections(collections.map((row) => row.id));
  await files.release(database, rest.map((row) => row.file_hash));
}
