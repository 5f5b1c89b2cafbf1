import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SQLite keeps small raw files in the database too (`blobs`, as PostgreSQL has since 009): each
 * upload used to create a file in the data folder, and on ext4 that cost more of ingestion than
 * the upload's database work (storage/sqlite-objects.ts). Files already in the folder stay there
 * and are still read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema
    .createTable('blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('bytes', 'blob', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // Dropping the table would lose the files in it: the data folder cannot be written from here.
  const { count } = (await sql<{ count: number }>`select count(*) as count from blobs`.execute(db)).rows[0]!;
  if (Number(count) > 0) throw new Error(`013_small_files_in_sqlite: ${count} raw files are kept in the blobs table; moving them back to the data folder is not supported.`);
  await db.schema.dropTable('blobs').execute();
}
