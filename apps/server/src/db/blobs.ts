import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * Raw files kept in the database (`blobs`): all of them on PostgreSQL without an object store
 * (every server and worker reads what any of them wrote), the small ones on SQLite. Each takes
 * the database or the transaction it runs in.
 */
export async function writeBlob(db: Kysely<DB>, hash: string, bytes: Buffer): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ hash, bytes, size: bytes.length, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute();
}

export async function readBlob(db: Kysely<DB>, hash: string): Promise<Buffer | null> {
  const row = await db.selectFrom('blobs').select('bytes').where('hash', '=', hash).executeTakeFirst();
  return row?.bytes ?? null;
}

export async function blobExists(db: Kysely<DB>, hash: string): Promise<boolean> {
  return (await db.selectFrom('blobs').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;
}

export async function deleteBlobs(db: Kysely<DB>, hashes: string[]): Promise<void> {
  for (let start = 0; start < hashes.length; start += 500) {
    await db.deleteFrom('blobs').where('hash', 'in', hashes.slice(start, start + 500)).execute();
  }
}
