import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Past one machine (#14): heartbeats of ingestion workers on both dialects; on PostgreSQL, raw
 * files without an object store (`blobs`) and the shared limits' counters (`rate_limits`, the
 * table layout of rate-limiter-flexible, created here so servers starting together never race
 * to create it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ingest_workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema
    .createTable('blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').ifExists().execute();
  await db.schema.dropTable('blobs').ifExists().execute();
  await db.schema.dropTable('ingest_workers').ifExists().execute();
}
