import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../db/schema.ts';

/**
 * Raw document data on disk under `<dataDir>/files/`, named by SHA-256 so identical uploads
 * share one file. A file is removed once no document references its hash any more.
 */
export interface FileStore {
  put(bytes: Buffer): Promise<string>;
  read(hash: string): Promise<Buffer>;
  path(hash: string): string;
  /** Removes the files of these hashes that no document references any more. */
  release(database: Database, hashes: Iterable<string>): Promise<void>;
}

const stores = new Map<string, FileStore>();

/** Files up to this size are written synchronously (see put). */
const SYNC_WRITE_BYTES = 1 << 20;

export function fileStore(dataDir: string): FileStore {
  const existing = stores.get(dataDir);
  if (existing) return existing;
  const root = join(dataDir, 'files');
  const pathOf = (hash: string) => join(root, hash.slice(0, 2), hash);
  const folders = new Set<string>();
  const store: FileStore = {
    async put(bytes) {
      const hash = createHash('sha256').update(bytes).digest('hex');
      const folder = join(root, hash.slice(0, 2));
      if (!folders.has(folder)) {
        mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      // Written whole then renamed: a crash never leaves a half file under a content hash.
      const temporary = `${pathOf(hash)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      if (bytes.length <= SYNC_WRITE_BYTES) {
        // For small files the promise API's four thread-pool round trips cost the HTTP thread
        // more than the calls themselves.
        writeFileSync(temporary, bytes);
        renameSync(temporary, pathOf(hash));
      } else {
        await writeFile(temporary, bytes);
        await rename(temporary, pathOf(hash));
      }
      return hash;
    },
    read: (hash) => readFile(pathOf(hash)),
    path: pathOf,
    async release(database, hashes) {
      const unique = [...new Set(hashes)];
      for (let start = 0; start < unique.length; start += 500) {
        const batch = unique.slice(start, start + 500);
        const used = await database.db.selectFrom('documents').select('file_hash').distinct().where('file_hash', 'in', batch).execute();
        const kept = new Set(used.map((row) => row.file_hash));
        await Promise.all(batch.filter((hash) => !kept.has(hash)).map((hash) => rm(pathOf(hash), { force: true })));
      }
    },
  };
  stores.set(dataDir, store);
  return store;
}
