import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Database } from '../db/schema.ts';

/**
 * Where raw bytes live, named by their SHA-256: a folder (SQLite, one machine), PostgreSQL or an
 * S3-compatible bucket (past one machine). The implementations are in storage/; one is chosen at
 * start and passed to whoever stores, reads or deletes files.
 */
export interface ObjectStore {
  readonly kind: 'disk' | 'postgres' | 's3';
  write(hash: string, bytes: Buffer): Promise<void>;
  /** The bytes, or a rejection when nothing is stored under the hash. */
  read(hash: string): Promise<Buffer>;
  /** The bytes as a stream, for serving; rejects when nothing is stored under the hash. */
  stream(hash: string): Promise<Readable>;
  /** Removes these objects; absent ones are no error. */
  remove(hashes: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Raw document data by content hash, so identical uploads share one object. An object is removed
 * once no document references its hash any more.
 */
export interface FileStore {
  readonly kind: ObjectStore['kind'];
  put(bytes: Buffer): Promise<string>;
  read(hash: string): Promise<Buffer>;
  stream(hash: string): Promise<Readable>;
  /** Removes the objects of these hashes that no document references any more. */
  release(database: Database, hashes: Iterable<string>): Promise<void>;
  close(): Promise<void>;
}

export const fileMessages = {
  missing: 'The raw document data is missing from storage.',
} as const;

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export function fileStore(objects: ObjectStore): FileStore {
  return {
    kind: objects.kind,
    async put(bytes) {
      const hash = sha256(bytes);
      await objects.write(hash, bytes);
      return hash;
    },
    read: (hash) => objects.read(hash),
    stream: (hash) => objects.stream(hash),
    async release({ db }, hashes) {
      const unique = [...new Set(hashes)];
      for (let start = 0; start < unique.length; start += 500) {
        const batch = unique.slice(start, start + 500);
        const used = await db.selectFrom('documents').select('file_hash').distinct().where('file_hash', 'in', batch).execute();
        const kept = new Set(used.map((row) => row.file_hash));
        const unused = batch.filter((hash) => !kept.has(hash));
        if (unused.length > 0) await objects.remove(unused);
      }
    },
    close: () => objects.close(),
  };
}
