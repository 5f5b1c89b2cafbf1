import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { lockFileHashes } from './db/file-locks.ts';
import type { Database, DB } from './db/schema.ts';

/**
 * Where raw bytes live, named by their SHA-256: a folder (SQLite, one machine), PostgreSQL or an
 * S3-compatible bucket (past one machine). The implementations are in storage/; one is chosen at
 * start and passed to whoever stores, reads or deletes files.
 */
export interface ObjectStore {
  readonly kind: 'sqlite' | 'disk' | 'postgres' | 's3';
  /**
   * Objects of at most `maxBytes` kept in the database, written in the transaction that makes a
   * document reference them: nothing is written before that commits, and no file is created.
   */
  readonly small?: {
    maxBytes: number;
    /** As the bytes are: the upload's transaction is not held while they are compressed. */
    write(trx: Kysely<DB>, hash: string, bytes: Buffer): Promise<void>;
    /** Compresses those of these objects it holds as written, once their documents are indexed. */
    compress(db: Kysely<DB>, hashes: string[]): Promise<void>;
  };
  write(hash: string, bytes: Buffer): Promise<void>;
  /** The bytes; rejects with ObjectMissing when nothing is stored under the hash, with another error when the store cannot be reached. */
  read(hash: string): Promise<Buffer>;
  /** `db`: the database or the transaction in progress, where objects kept in the database are looked for. */
  exists(hash: string, db: Kysely<DB>): Promise<boolean>;
  /** The bytes as a stream, for serving; rejects when nothing is stored under the hash. */
  stream(hash: string): Promise<Readable>;
  /** Removes these objects (those kept in the database in `db`'s transaction); absent ones are no error. */
  remove(hashes: string[], db: Kysely<DB>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Raw document data by content hash, so identical uploads share one object. An object is removed
 * once no document references its hash any more. An upload writes a large object first (`put`,
 * outside any transaction), then in the transaction that adds the document `keep`s it (a small
 * one the store keeps in the database is written there and then): the object's removal by a
 * `release` is serialised with that transaction, so a document never commits without its file,
 * whatever is deleted meanwhile.
 */
export interface FileStore {
  readonly kind: ObjectStore['kind'];
  /** The bytes' hash, once a large object is written (a small one waits for `keep`). */
  put(bytes: Buffer): Promise<string>;
  /**
   * In the transaction that makes a document reference `hash`, after `put`: the object is there
   * when it commits. A release since `put` (the last other document with these bytes deleted
   * meanwhile) removed it; it is written again.
   */
  keep(database: Database, trx: Kysely<DB>, hash: string, bytes: Buffer): Promise<void>;
  /** Rejects with ObjectMissing when nothing is stored under the hash (see ObjectStore.read). */
  read(hash: string): Promise<Buffer>;
  stream(hash: string): Promise<Readable>;
  /** Removes the objects of these hashes that no document needs any more (references, and keeps no copy of as its text). */
  release(database: Database, hashes: Iterable<string>): Promise<void>;
  /** Objects kept once their documents are indexed: those held in the database are compressed. */
  compressKept(database: Database, hashes: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Up to this size, stores that can keep an object in the database do, written with the document:
 * an upload of a few kilobytes then costs one row in the transaction that adds it, where a file of
 * its own cost more than the rest of its upload (creating a file waits on the file system's
 * journal) and PostgreSQL committed the object in a transaction of its own. Larger objects are
 * written before that transaction, so it never holds the write lock while megabytes are copied.
 */
export const SMALL_OBJECT_BYTES = 128 * 1024;

export const fileMessages = {
  missing: 'The raw document data is missing from storage.',
} as const;

/**
 * A read that found nothing stored under the hash: the document's own fault (its data is gone for
 * good). Any other failure of a read means the store could not be reached, and is retried later.
 */
export class ObjectMissing extends Error {
  constructor(readonly hash: string) {
    super(fileMessages.missing);
    this.name = 'ObjectMissing';
  }
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export function fileStore(objects: ObjectStore): FileStore {
  const isSmall = (bytes: Buffer) => objects.small !== undefined && bytes.length <= objects.small.maxBytes;
  return {
    kind: objects.kind,
    async put(bytes) {
      const hash = sha256(bytes);
      if (!isSmall(bytes)) await objects.write(hash, bytes);
      return hash;
    },
    async keep(database, trx, hash, bytes) {
      await lockFileHashes(trx, database.dialect, [hash]);
      if (isSmall(bytes)) await objects.small!.write(trx, hash, bytes);
      else if (!(await objects.exists(hash, trx))) await objects.write(hash, bytes);
    },
    read: (hash) => objects.read(hash),
    stream: (hash) => objects.stream(hash),
    async release(database, hashes) {
      const unique = [...new Set(hashes)];
      for (let start = 0; start < unique.length; start += 500) {
        const batch = unique.slice(start, start + 500);
        await database.db.transaction().execute(async (trx) => {
          await lockFileHashes(trx, database.dialect, batch);
          // A document whose file is made from its text or pages (file_in_text not 0) needs no object.
          const used = await trx.selectFrom('documents').select('file_hash').distinct().where('file_hash', 'in', batch).where('file_in_text', '=', 0).execute();
          const kept = new Set(used.map((row) => row.file_hash));
          const unused = batch.filter((hash) => !kept.has(hash));
          if (unused.length > 0) await objects.remove(unused, trx);
        });
      }
    },
    compressKept: async (database, hashes) => objects.small?.compress(database.db, hashes),
    close: () => objects.close(),
  };
}
