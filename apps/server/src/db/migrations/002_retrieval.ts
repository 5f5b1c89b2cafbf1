import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Collections, documents (also the ingestion queue), metadata rows for filtering, pages and
 * chunks, and the search index of each granularity: SQLite FTS5 tables kept in step by triggers,
 * or PostgreSQL tsvector columns with GIN indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Paths and metadata values compare by code point on both sides (cursor paging, $gt/$lt).
  const binaryText = postgres ? sql`text collate "C"` : sql`text`;
  const serial = postgres ? sql`bigserial` : sql`integer`;
  const withSerial = (c: any) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()); // eslint-disable-line @typescript-eslint/no-explicit-any

  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('collections_org_name', ['organization_id', 'name'])
    .execute();

  await db.schema
    .createTable('documents')
    .addColumn('seq', serial, withSerial)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('collection_id', 'text', (c) => c.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('path', binaryText, (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('index_status', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('file_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('num_pages', 'integer')
    .addColumn('error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('text', 'text')
    .addColumn('text_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('documents_collection_path', ['collection_id', 'path'])
    .execute();
  await db.schema.createIndex('documents_org_status').on('documents').columns(['organization_id', 'index_status']).execute();
  await db.schema.createIndex('documents_collection_status').on('documents').columns(['collection_id', 'index_status']).execute();
  await db.schema.createIndex('documents_file_hash').on('documents').column('file_hash').execute();
  // The queue: only waiting documents, oldest first; and held leases, to find expired ones.
  await sql`create index documents_queue on documents (created_at) where index_status in ('not_parsed', 'not_indexed')`.execute(db);
  await sql`create index documents_leases on documents (lease_expires_at) where lease_owner is not null`.execute(db);

  await db.schema
    .createTable('document_metadata')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', binaryText, (c) => c.notNull())
    .addPrimaryKeyConstraint('document_metadata_pk', ['document_id', 'key', 'value'])
    .execute();
  await db.schema.createIndex('document_metadata_key_value').on('document_metadata').columns(['key', 'value']).execute();

  await db.schema
    .createTable('pages')
    .addColumn('seq', serial, withSerial)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('collection_id', 'text', (c) => c.notNull())
    .addColumn('page_index', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('start_index', 'integer', (c) => c.notNull())
    .addColumn('end_index', 'integer', (c) => c.notNull())
    .addUniqueConstraint('pages_document_index', ['document_id', 'page_index'])
    .execute();

  await db.schema
    .createTable('chunks')
    .addColumn('seq', serial, withSerial)
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('collection_id', 'text', (c) => c.notNull())
    .addColumn('granularity', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('start_index', 'integer', (c) => c.notNull())
    .addColumn('end_index', 'integer', (c) => c.notNull())
    .addColumn('page_start', 'integer', (c) => c.notNull())
    .addColumn('page_end', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chunks_document').on('chunks').column('document_id').execute();

  if (postgres) await postgresIndex(db);
  else await sqliteIndex(db);
}

/** tsvector columns computed by PostgreSQL itself, with GIN indexes. */
async function postgresIndex(db: Kysely<unknown>): Promise<void> {
  // A tsvector holds at most 1 MB: the document-level index reads the first 500,000 characters.
  await sql`alter table documents add column text_tsv tsvector generated always as (to_tsvector('english', left(coalesce(text, ''), 500000))) stored`.execute(db);
  await sql`alter table pages add column tsv tsvector generated always as (to_tsvector('english', left(content, 500000))) stored`.execute(db);
  await sql`alter table chunks add column tsv tsvector generated always as (to_tsvector('english', content)) stored`.execute(db);
  await sql`create index documents_text_tsv on documents using gin (text_tsv)`.execute(db);
  await sql`create index pages_tsv on pages using gin (tsv)`.execute(db);
  await sql`create index chunks_tsv on chunks using gin (tsv)`.execute(db);
}

/**
 * One contentless FTS5 table per granularity (the text lives once, in its own table). Column
 * `collection` holds one token per collection so a search stays inside its collection; its
 * BM25 weight is 0. Triggers keep pages and chunks indexed; documents are indexed explicitly
 * when the worker finishes them, and unindexed by trigger when deleted.
 */
async function sqliteIndex(db: Kysely<unknown>): Promise<void> {
  const token = (column: string) => `'c' || replace(${column}, '-', '')`;
  for (const table of ['documents_fts', 'pages_fts', 'coarse_fts', 'fine_fts']) {
    await sql
      .raw(`create virtual table ${table} using fts5(collection, content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`)
      .execute(db);
    await sql.raw(`insert into ${table}(${table}, rank) values ('rank', 'bm25(0.0, 1.0)')`).execute(db);
  }
  await sql.raw(`create trigger documents_fts_delete after delete on documents begin delete from documents_fts where rowid = old.seq; end`).execute(db);
  await sql
    .raw(`create trigger pages_fts_insert after insert on pages begin insert into pages_fts(rowid, collection, content) values (new.seq, ${token('new.collection_id')}, new.content); end`)
    .execute(db);
  await sql.raw(`create trigger pages_fts_delete after delete on pages begin delete from pages_fts where rowid = old.seq; end`).execute(db);
  for (const granularity of ['coarse', 'fine']) {
    await sql
      .raw(
        `create trigger ${granularity}_fts_insert after insert on chunks when new.granularity = '${granularity}' begin ` +
          `insert into ${granularity}_fts(rowid, collection, content) values (new.seq, ${token('new.collection_id')}, new.content); end`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${granularity}_fts_delete after delete on chunks when old.granularity = '${granularity}' begin delete from ${granularity}_fts where rowid = old.seq; end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['documents_fts', 'pages_fts', 'coarse_fts', 'fine_fts']) await sql.raw(`drop table if exists ${table}`).execute(db);
  for (const table of ['chunks', 'pages', 'document_metadata', 'documents', 'collections']) await db.schema.dropTable(table).execute();
}
