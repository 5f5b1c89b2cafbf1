import type { Database } from './schema.ts';

/**
 * Raw files kept in PostgreSQL (`blobs`), for installations past one machine without an object
 * store: every server and worker reads what any of them wrote.
 */
export async function writeBlob({ db }: Database, hash: string, bytes: Buffer): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ hash, bytes, size: bytes.length, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute();
}

export async function readBlob({ db }: Database, hash: string): Promise<Buffer | null> {
  const row = await db.selectFrom('blobs').select('bytes').where('hash', '=', hash).executeTakeFirst();
  return row?.bytes ?? null;
}

export async function blobExists({ db }: Database, hash: string): Promise<boolean> {
  return (await db.selectFrom('blobs').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;
}

export async function deleteBlobs({ db }: Database, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await db.deleteFrom('blobs').where('hash', 'in', hashes).execute();
}
