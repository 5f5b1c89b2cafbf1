import { Readable } from 'node:stream';
import { blobExists, deleteBlobs, readBlob, writeBlob } from '../db/blobs.ts';
import type { Database } from '../db/schema.ts';
import type { ObjectStore } from '../domain/file-store.ts';

/** Raw files in PostgreSQL's `blobs` table: past one machine when no object store is configured. */
export function postgresObjects(database: Database): ObjectStore {
  const read = async (hash: string) => {
    const bytes = await readBlob(database, hash);
    if (!bytes) throw new Error(`no stored object ${hash}`);
    return bytes;
  };
  return {
    kind: 'postgres',
    write: (hash, bytes) => writeBlob(database, hash, bytes),
    read,
    exists: (hash) => blobExists(database, hash),
    stream: async (hash) => Readable.from([await read(hash)]),
    async remove(hashes) {
      for (let start = 0; start < hashes.length; start += 500) await deleteBlobs(database, hashes.slice(start, start + 500));
    },
    close: async () => {},
  };
}
