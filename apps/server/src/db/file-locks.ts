import { type Kysely, sql } from 'kysely';
import type { Database, DB } from './schema.ts';

/**
 * Serialises, per content hash and until the transaction ends, a document taking a reference to
 * a raw file and that file's removal once nothing references it (domain/file-store.ts). SQLite
 * needs nothing: its transactions take the write lock up front (sqlite-dialect.ts). PostgreSQL
 * takes a transaction-scoped advisory lock per hash, in hash order, so two batches never deadlock.
 */
export async function lockFileHashes(trx: Kysely<DB>, dialect: Database['dialect'], hashes: readonly string[]): Promise<void> {
  if (dialect !== 'postgres' || hashes.length === 0) return;
  const sorted = [...new Set(hashes)].sort();
  await sql`select count(pg_advisory_xact_lock(hashtextextended(h, 0))) from unnest(${sorted}::text[]) as t(h)`.execute(trx);
}
