import { Readable } from 'node:stream';
import { blobExists, compressBlobs, deleteBlobs, readBlob, writeBlobAsIs } from '../db/blobs.ts';
import type { Database } from '../db/schema.ts';
import { type ObjectStore, SMALL_OBJECT_BYTES } from '../file-store.ts';
import { diskObjects } from './disk-objects.ts';

/**
 * Raw files of a SQLite installation (one machine): small ones in the database's `blobs` table,
 * written with their document (migration 013), large ones in the data folder (disk-objects.ts).
 * Files written to the folder before 013, whatever their size, are read from there.
 */
export function sqliteObjects(database: Database, dataDir: string): ObjectStore {
  const disk = diskObjects(dataDir);
  return {
    kind: 'sqlite',
    small: { maxBytes: SMALL_OBJECT_BYTES, write: writeBlobAsIs, compress: (db, hashes) => compressBlobs(db, hashes, SMALL_OBJECT_BYTES) },
    write: disk.write,
    read: async (hash) => (await readBlob(database.db, hash)) ?? disk.read(hash),
    exists: async (hash, db) => (await blobExists(db, hash)) || disk.exists(hash, db),
    async stream(hash) {
      const bytes = await readBlob(database.db, hash);
      return bytes ? Readable.from([bytes]) : disk.stream(hash);
    },
    async remove(hashes, db) {
      await deleteBlobs(db, hashes);
      await disk.remove(hashes, db);
    },
    close: async () => {},
  };
}
