import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Metadata rows name their document's collection and its `seq`, and the filters' index is
 * (collection, key, value, document seq): a filter finds the documents of the queried collection
 * only, by the key the search index uses. Keyed by (key, value) alone, a filter on `lang = en` read
 * every document of every organization with that pair before keeping the queried collection's,
 * so one organization's documents made another's filtered searches slower; and each document
 * found was looked up again for its seq, a cost that grew with the documents passing.
 * A document never changes collection or seq, so the columns never change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document_metadata').addColumn('collection_id', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('document_metadata').addColumn('document_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update document_metadata set
    collection_id = (select d.collection_id from documents d where d.id = document_metadata.document_id),
    document_seq = (select d.seq from documents d where d.id = document_metadata.document_id)`.execute(db);
  // SQLite cannot drop a column's default; every writer names both.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table document_metadata alter column collection_id drop default, alter column document_seq drop default`.execute(db);
  }
  await db.schema.createIndex('document_metadata_collection').on('document_metadata').columns(['collection_id', 'key', 'value', 'document_seq']).execute();
  await db.schema.dropIndex('document_metadata_key_value').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('document_metadata_key_value').on('document_metadata').columns(['key', 'value']).execute();
  await db.schema.dropIndex('document_metadata_collection').execute();
  await db.schema.alterTable('document_metadata').dropColumn('document_seq').execute();
  await db.schema.alterTable('document_metadata').dropColumn('collection_id').execute();
}
