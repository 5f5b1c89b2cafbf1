import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  AddDocumentRequest,
  DeleteDocumentRequest,
  DocumentMetadata,
  GetDocumentInfoListRequest,
  GetDocumentInfoRequest,
  GetPageInfoRequest,
  UpdateDocumentRequest,
} from '@sift/contracts';
import type { Database, DB } from '../db/schema.ts';
import type { DocumentSourceType, IndexStatus } from '../db/tables/retrieval.ts';
import type { EngineServices } from '../engine/engine.ts';
import { FileInText, keptFileOf, pagesFile } from '../engine/ingest/document-rows.ts';
import { hasPageImages } from '../engine/ingest/page-image.ts';
import { nowIso } from '../clock.ts';
import { requireCollection } from './collections.ts';
import { Conflict, DomainError, NotFound } from './errors.ts';
import { pageImageUrls } from './page-images.ts';
import type { ProviderActor } from './provider-actor.ts';
import { addDocumentEvent, addGroupedDocumentEvent } from './usage-events.ts';

export const documentMessages = {
  exists: 'Document already exists.',
  notFound: 'Document not found.',
  pageNotFound: 'Page not found.',
} as const;

/** The raw data of a document's content as stored on disk, and its size in bytes. */
function rawContent(content: AddDocumentRequest['content']): { bytes: Buffer; size: number; sourceType: DocumentSourceType } {
  switch (content.type) {
    case 'text': {
      const bytes = Buffer.from(content.text, 'utf8');
      return { bytes, size: bytes.length, sourceType: 'text' };
    }
    case 'text-pages':
    case 'text-pages-unordered':
      return {
        bytes: pagesFile(content.pages),
        size: content.pages.reduce((total, page) => total + Buffer.byteLength(page, 'utf8'), 0),
        sourceType: content.type,
      };
    case 'auto': {
      // The contract has checked it is base64 (422 otherwise).
      const bytes = Buffer.from(content.base64_data, 'base64');
      return { bytes, size: bytes.length, sourceType: 'auto' };
    }
  }
}

interface MetadataOwner {
  id: string;
  seq: number;
  collectionId: string;
}

const metadataRows = (document: MetadataOwner, metadata: DocumentMetadata) =>
  Object.entries(metadata).flatMap(([key, value]) =>
    [...new Set(Array.isArray(value) ? value : [value])].map((item) => ({
      document_id: document.id,
      document_seq: document.seq,
      collection_id: document.collectionId,
      key,
      value: item,
    })),
  );

async function writeMetadata(trx: Kysely<DB>, document: MetadataOwner, metadata: DocumentMetadata): Promise<void> {
  const rows = metadataRows(document, metadata);
  for (let start = 0; start < rows.length; start += 300) {
    await trx.insertInto('document_metadata').values(rows.slice(start, start + 300)).execute();
  }
}

/**
 * Stores the raw data and queues the document as `not_parsed`. Answers `created: false` when
 * `overwrite` replaced an existing document: the same row takes the new content and metadata and
 * goes back to the queue, while its pages, snippets and text stay searchable until the new
 * version is indexed in their place.
 */
export async function addDocument(database: Database, { queue }: EngineServices, actor: ProviderActor, input: AddDocumentRequest): Promise<{ created: boolean }> {
  const { bytes, size, sourceType } = rawContent(input.content);
  const withPageImages = sourceType === 'auto' && hasPageImages(bytes, input.path);
  const fileHash = await actor.files.put(bytes);
  let replacedHash: string | null = null;
  try {
    // Uploads sent together commit together (see group-commit.ts).
    await database.inGroupedTransaction(async (trx, group) => {
      const collection = await requireCollection(trx, actor.organizationId, input.collection_name);
      // Without overwrite, the insert below finds an existing path itself (its unique constraint: 409).
      const existing = input.overwrite
        ? await trx
            .selectFrom('documents')
            .select(['id', 'seq', 'file_hash'])
            .where('collection_id', '=', collection.collectionId)
            .where('path', '=', input.path)
            .executeTakeFirst()
        : undefined;
      await actor.files.keep(database, trx, fileHash, bytes);
      const now = nowIso();
      const content = {
        metadata: JSON.stringify(input.metadata),
        source_type: sourceType,
        size,
        file_hash: fileHash,
        // The new file is kept until its text is indexed; the old text is not its copy.
        file_in_text: FileInText.kept,
        has_page_images: withPageImages ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      if (existing) {
        await trx
          .updateTable('documents')
          .set({ ...content, ...queue.queuedState('not_parsed') })
          .where('id', '=', existing.id)
          .execute();
        await trx.deleteFrom('document_metadata').where('document_id', '=', existing.id).execute();
        // The old file's page images go with it; the new file's are made on request.
        await trx.deleteFrom('page_images').where('document_id', '=', existing.id).execute();
        await writeMetadata(trx, { id: existing.id, seq: existing.seq, collectionId: collection.collectionId }, input.metadata);
        replacedHash = existing.file_hash;
      } else {
        const id = randomUUID();
        const { seq } = await trx
          .insertInto('documents')
          .values({
            id,
            organization_id: actor.organizationId,
            collection_id: collection.collectionId,
            path: input.path,
            ...content,
            ...queue.queuedState('not_parsed'),
            num_pages: null,
            text_bytes: 0,
          })
          .returning('seq')
          .executeTakeFirstOrThrow();
        await writeMetadata(trx, { id, seq, collectionId: collection.collectionId }, input.metadata);
      }
      addGroupedDocumentEvent(group, collection, 'added', { fileBytes: size });
    });
  } catch (error) {
    if (/unique|duplicate/i.test(String((error as Error).message))) {
      await actor.files.release(database, [fileHash]);
      throw new Conflict(documentMessages.exists);
    }
    await actor.files.release(database, [fileHash]);
    throw error;
  }
  if (replacedHash && replacedHash !== fileHash) await actor.files.release(database, [replacedHash]);
  queue.notifyQueued();
  return { created: replacedHash === null };
}

async function requireDocument(trx: Kysely<DB>, collectionId: string, path: string) {
  const row = await trx
    .selectFrom('documents')
    .select(['id', 'seq', 'index_status', 'metadata'])
    .where('collection_id', '=', collectionId)
    .where('path', '=', path)
    .executeTakeFirst();
  if (!row) throw new NotFound(documentMessages.notFound);
  return row;
}

/** Which failed status each retry status may replace. */
const retryFrom: Record<'not_parsed' | 'not_indexed', IndexStatus> = { not_parsed: 'parsing_failed', not_indexed: 'indexing_failed' };

/**
 * New metadata replaces the old (an indexed document goes back to `not_indexed` to be indexed
 * with it); `index_status` retries a failed document.
 */
export async function updateDocument(database: Database, { queue }: EngineServices, actor: Pick<ProviderActor, 'organizationId'>, input: UpdateDocumentRequest) {
  let requeued = false;
  await database.db.transaction().execute(async (trx) => {
    const collection = await requireCollection(trx, actor.organizationId, input.collection_name);
    const document = await requireDocument(trx, collection.collectionId, input.path);
    let status = document.index_status;
    if (input.index_status) {
      const required = retryFrom[input.index_status];
      if (status !== required) {
        throw new DomainError(400, `index_status can be set to ${input.index_status} only when it is ${required}; this document is ${status}.`);
      }
      status = input.index_status;
    }
    if (input.metadata) {
      await trx.deleteFrom('document_metadata').where('document_id', '=', document.id).execute();
      await writeMetadata(trx, { id: document.id, seq: document.seq, collectionId: collection.collectionId }, input.metadata);
      if (status === 'indexed') status = 'not_indexed';
    }
    requeued = status !== document.index_status;
    await trx
      .updateTable('documents')
      .set({
        ...(input.metadata ? { metadata: JSON.stringify(input.metadata) } : {}),
        ...(requeued ? queue.queuedState(status as 'not_parsed' | 'not_indexed') : {}),
        updated_at: nowIso(),
      })
      .where('id', '=', document.id)
      .execute();
  });
  if (requeued) queue.notifyQueued();
  return { message: 'Success!' };
}

/** Deletes one path or up to 64; 404 only when none of them exists. */
export async function deleteDocuments(database: Database, { search }: EngineServices, actor: ProviderActor, input: DeleteDocumentRequest) {
  const paths = [...new Set(Array.isArray(input.path) ? input.path : [input.path])];
  const { collectionId } = await requireCollection(database.db, actor.organizationId, input.collection_name);
  const found = await database.db.selectFrom('documents').select('id').where('collection_id', '=', collectionId).where('path', 'in', paths).execute();
  await search.deleteSnippetsOf(found.map((row) => row.id));
  const deleted = await database.db.transaction().execute(async (trx) => {
    const collection = await requireCollection(trx, actor.organizationId, input.collection_name);
    const rows = await trx
      .selectFrom('documents')
      .select(['id', 'path', 'file_hash', 'size'])
      .where('collection_id', '=', collection.collectionId)
      .where('path', 'in', paths)
      .execute();
    if (rows.length === 0) throw new NotFound(documentMessages.notFound);
    await trx.deleteFrom('documents').where('id', 'in', rows.map((row) => row.id)).execute();
    await addDocumentEvent(trx, collection, 'deleted', { count: rows.length, fileBytes: rows.reduce((total, row) => total + Number(row.size), 0) });
    return rows;
  });
  await actor.files.release(database, deleted.map((row) => row.file_hash));
  const gone = new Set(deleted.map((row) => row.path));
  return { deleted_paths: paths.filter((path) => gone.has(path)) };
}

const documentColumns = ['id', 'path', 'metadata', 'index_status', 'size', 'num_pages', 'created_at', 'error'] as const;

export async function getDocumentInfo(database: Database, { search }: EngineServices, actor: ProviderActor, input: GetDocumentInfoRequest) {
  const { db } = database;
  const collection = await requireCollection(db, actor.organizationId, input.collection_name);
  const row = await db
    .selectFrom('documents')
    .select(documentColumns)
    .where('collection_id', '=', collection.collectionId)
    .where('path', '=', input.path)
    .executeTakeFirst();
  if (!row) throw new NotFound(documentMessages.notFound);
  const [fileUrl] = await actor.fileUrls([row.id]);
  const { created_at: _created, ...fields } = documentFields(row, collection.collectionName, fileUrl!);
  return { document: { ...fields, content: input.include_content ? await search.text(row.id) : null } };
}

/** One page of a collection's documents sorted by path (binary order), after `path_gt`. */
export async function listDocuments(database: Database, actor: ProviderActor, input: GetDocumentInfoListRequest) {
  const { db } = database;
  const collection = await requireCollection(db, actor.organizationId, input.collection_name);
  let query = db.selectFrom('documents').select(documentColumns).where('collection_id', '=', collection.collectionId);
  if (input.path_prefix) {
    // Every path starting with the prefix sorts between it and it + the highest code point.
    query = query.where('path', '>=', input.path_prefix).where('path', '<', `${input.path_prefix}\u{10FFFF}`);
  }
  if (input.path_gt != null) query = query.where('path', '>', input.path_gt);
  const rows = await query.orderBy('path').limit(input.limit).execute();
  const fileUrls = await actor.fileUrls(rows.map((row) => row.id));
  const documents = rows.map((row, i) => documentFields(row, collection.collectionName, fileUrls[i]!));
  return { documents };
}

export async function getPageInfo(database: Database, { search }: EngineServices, actor: ProviderActor, input: GetPageInfoRequest) {
  const { db } = database;
  const collection = await requireCollection(db, actor.organizationId, input.collection_name);
  const document = await requireDocument(db, collection.collectionId, input.path);
  const page = await search.page(document.id, input.page_index, input.include_content);
  if (!page) throw new NotFound(documentMessages.pageNotFound);
  const [imageUrl] = await pageImageUrls(database, actor, [{ documentId: document.id, pageIndex: page.pageIndex }]);
  return {
    page: {
      id: page.id,
      collection_name: collection.collectionName,
      path: input.path,
      page_index: page.pageIndex,
      content: page.content,
      image_url: imageUrl ?? null,
    },
  };
}

type DocumentRow = Pick<DB['documents'], (typeof documentColumns)[number]>;

function documentFields(row: DocumentRow, collectionName: string, fileUrl: string) {
  return {
    id: row.id,
    collection_name: collectionName,
    path: row.path,
    metadata: JSON.parse(row.metadata) as DocumentMetadata,
    index_status: row.index_status,
    created_at: row.created_at,
    size: Number(row.size),
    num_pages: row.num_pages,
    file_url: fileUrl,
    failure_reason: row.index_status === 'parsing_failed' || row.index_status === 'indexing_failed' ? row.error : null,
  };
}

/** Document counts by status, for one collection or the whole organization. */
export async function getStatus({ db }: Database, { queue }: EngineServices, actor: Pick<ProviderActor, 'organizationId'>, input: { collection_name?: string | null }) {
  const scope =
    input.collection_name != null
      ? { collectionId: (await requireCollection(db, actor.organizationId, input.collection_name)).collectionId }
      : { organizationId: actor.organizationId };
  const counts = await queue.counts(scope);
  const count = (...statuses: IndexStatus[]) => statuses.reduce((total, status) => total + (counts.get(status)?.count ?? 0), 0);
  return {
    num_documents: [...counts.values()].reduce((total, value) => total + value.count, 0),
    num_parsing_documents: count('not_parsed', 'parsing'),
    num_indexing_documents: count('not_indexed', 'indexing'),
    num_indexed_documents: count('indexed'),
    num_failed_documents: count('parsing_failed', 'indexing_failed'),
    num_indexed_bytes: counts.get('indexed')?.bytes ?? 0,
  };
}

/** The raw file behind a verified `file_url` token, with the content type to serve it as. */
export async function openDocumentFile({ db }: Database, documentId: string) {
  const file = await keptFileOf(db, documentId);
  if (!file) throw new NotFound(documentMessages.notFound);
  return { fileHash: file.fileHash, bytes: file.bytes, contentType: contentTypeOf(file.sourceType, file.path) };
}

const extensionTypes: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

function contentTypeOf(sourceType: DocumentSourceType, path: string): string {
  if (sourceType === 'text') return 'text/plain; charset=utf-8';
  if (sourceType !== 'auto') return 'application/json; charset=utf-8';
  return extensionTypes[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}
