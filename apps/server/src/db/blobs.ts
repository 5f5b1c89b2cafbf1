import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

const compress = promisify(gzip);
const decompress = promisify(gunzip);

/**
 * Raw files kept in the database (`blobs`): all of them on PostgreSQL without an object store
 * (every server and worker reads what any of them wrote), the small ones on SQLite. Each takes
 * the database or the transaction it runs in. A file is stored gzipped when that makes it
 * smaller (text, most uploads, to about a third), so a row whose bytes are fewer than its `size`
 * (the file's) is gzipped; its hash stays that of the file.
 */
export async function writeBlob(db: Kysely<DB>, hash: string, bytes: Buffer): Promise<void> {
  const gzipped = await compress(bytes);
  await insertBlob(db, hash, gzipped.length < bytes.length ? gzipped : bytes, bytes.length);
}

/**
 * A small file as it is, in the transaction adding its document: compressing there held the
 * transaction, and every upload grouped with it, for a round trip to the thread pool, and most
 * such files (plain text) are dropped once their text is indexed. Those still kept then are
 * compressed (compressBlobs).
 */
export async function writeBlobAsIs(db: Kysely<DB>, hash: string, bytes: Buffer): Promise<void> {
  await insertBlob(db, hash, bytes, bytes.length);
}

async function insertBlob(db: Kysely<DB>, hash: string, stored: Buffer, size: number): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ hash, bytes: stored, size, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute();
}

/** Of these files, those of at most `maxBytes` stored as they are, gzipped where that makes them smaller. */
export async function compressBlobs(db: Kysely<DB>, hashes: string[], maxBytes: number): Promise<void> {
  if (hashes.length === 0) return;
  const rows = await db
    .selectFrom('blobs')
    .select(['hash', 'bytes'])
    .where('hash', 'in', hashes)
    .where('size', '<=', maxBytes)
    .where(sql`length(bytes)`, '=', sql.ref('size'))
    .execute();
  for (const row of rows) {
    const gzipped = await compress(row.bytes);
    if (gzipped.length < row.bytes.length) await db.updateTable('blobs').set({ bytes: gzipped }).where('hash', '=', row.hash).execute();
  }
}

export async function readBlob(db: Kysely<DB>, hash: string): Promise<Buffer | null> {
  const row = await db.selectFrom('blobs').select(['bytes', 'size']).where('hash', '=', hash).executeTakeFirst();
  return row ? asWritten(row.bytes, Number(row.size)) : null;
}

/** The file's bytes from a row's: gunzipped when fewer than the file's size (writeBlob). */
const asWritten = (stored: Buffer, size: number): Promise<Buffer> | Buffer => (stored.length < size ? decompress(stored) : stored);

/** Bytes of a blob read at once by readBlobInSlices. */
export const BLOB_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * A blob read a slice at a time into one buffer (PostgreSQL): read whole, a bytea arrives as text,
 * two hex digits a byte, which the driver holds as a message, then as a string, then decodes:
 * several times the file's size at once. Slices bound the extra to a few of them.
 */
export async function readBlobInSlices(db: Kysely<DB>, hash: string): Promise<Buffer | null> {
  // A blob of one slice or less comes with the first read.
  const { rows: found } = await sql<{ size: number; stored: number; bytes: Buffer | null }>`
    select size, length(bytes) as stored, case when length(bytes) <= ${BLOB_SLICE_BYTES} then bytes end as bytes from blobs where hash = ${hash}`.execute(db);
  if (!found[0]) return null;
  const stored = Number(found[0].stored);
  if (found[0].bytes) return asWritten(found[0].bytes, Number(found[0].size));
  const bytes = Buffer.allocUnsafe(stored);
  for (let offset = 0; offset < stored; offset += BLOB_SLICE_BYTES) {
    const { rows } = await sql<{ part: Buffer }>`select substring(bytes from ${offset + 1} for ${BLOB_SLICE_BYTES}) as part from blobs where hash = ${hash}`.execute(db);
    const part = rows[0]?.part;
    // Blobs are written once under their content's hash: a shorter one was deleted meanwhile.
    if (!part || part.length !== Math.min(BLOB_SLICE_BYTES, stored - offset)) return null;
    part.copy(bytes, offset);
  }
  return asWritten(bytes, Number(found[0].size));
}

export async function blobExists(db: Kysely<DB>, hash: string): Promise<boolean> {
  return (await db.selectFrom('blobs').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;
}

export async function deleteBlobs(db: Kysely<DB>, hashes: string[]): Promise<void> {
  for (let start = 0; start < hashes.length; start += 500) {
    await db.deleteFrom('blobs').where('hash', 'in', hashes.slice(start, start + 500)).execute();
  }
}
