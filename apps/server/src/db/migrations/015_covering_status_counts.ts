import { type Kysely, sql } from 'kysely';

/**
 * Document counts by status (get-status, the Collections screen, the metrics' document gauges)
 * count a collection's or the whole installation's documents and add up their bytes. The status
 * indexes gave the rows but not their bytes, so each counted row was read from the table, where
 * SQLite keeps a document's text inline: get-status read every text of the collection, on the
 * HTTP thread, each time a client polled it while uploading. With the bytes in the indexes the
 * counts are read from them alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index documents_org_status`.execute(db);
  await sql`drop index documents_collection_status`.execute(db);
  await sql`create index documents_org_status on documents (organization_id, index_status, text_bytes, size)`.execute(db);
  await sql`create index documents_collection_status on documents (collection_id, index_status, text_bytes)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index documents_org_status`.execute(db);
  await sql`drop index documents_collection_status`.execute(db);
  await sql`create index documents_org_status on documents (organization_id, index_status)`.execute(db);
  await sql`create index documents_collection_status on documents (collection_id, index_status)`.execute(db);
}
