import { Readable } from 'node:stream';
import { blobExists, compressBlobs, deleteBlobs, readBlobInSlices, writeBlob, writeBlobAsIs } from '../db/blobs.ts';
import type { Database } from '../db/schema.ts';
import { dependencyUnavailable } from '../dependencies.ts';
import { ObjectMissing, type ObjectStore, SMALL_OBJECT_BYTES } from '../file-store.ts';

/** The database unreachable: a DependencyUnavailable, as the object store's outages are (s3-objects.ts). */
const asOutage = (error: unknown): never => {
  throw dependencyUnavailable(error) ?? error;
};

/**
 * Raw files in PostgreSQL's `blobs` table: past one machine when no object store is configured.
 * Small ones are written in the transaction that adds their document, large ones before it.
 */
export function postgresObjects(database: Database): ObjectStore {
  const read = async (hash: string) => {
    const bytes = await readBlobInSlices(database.db, hash).catch(asOutage);
    if (!bytes) throw new ObjectMissing(hash);
    return bytes;
  };
  return {
    kind: 'postgres',
    small: { maxBytes: SMALL_OBJECT_BYTES, write: writeBlobAsIs, compress: (db, hashes) => compressBlobs(db, hashes, SMALL_OBJECT_BYTES) },
    write: (hash, bytes) => writeBlob(database.db, hash, bytes).catch(asOutage),
    read,
    exists: (hash, db) => blobExists(db, hash),
    stream: async (hash) => Readable.from([await read(hash)]),
    remove: (hashes, db) => deleteBlobs(db, hashes),
    close: async () => {},
  };
}
