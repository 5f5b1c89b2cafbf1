import type { StorageConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { type FileStore, fileStore } from '../domain/file-store.ts';
import { postgresObjects } from './postgres-objects.ts';
import { s3Check, s3Objects } from './s3-objects.ts';
import { sqliteObjects } from './sqlite-objects.ts';

/**
 * Where this installation keeps raw files, chosen once at start and passed to the services:
 * the S3 bucket when one is configured; else PostgreSQL when it is the database (every machine
 * reaches it); else SQLite and the data folder (one machine).
 */
export function openFileStore(storage: StorageConfig, database: Database, dataDir: string): FileStore {
  if (storage.s3) return fileStore(s3Objects(storage.s3));
  if (database.dialect === 'postgres') return fileStore(postgresObjects(database));
  return fileStore(sqliteObjects(database, dataDir));
}

/** Readiness's check of the object store, when one is configured (the database is checked on its own). */
export function openObjectStoreCheck(storage: StorageConfig): { check(): Promise<void>; close(): void } | null {
  return storage.s3 ? s3Check(storage.s3) : null;
}
