import { randomUUID } from 'node:crypto';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { BulkInserts } from '../../db/bulk-insert.ts';
import type { DB } from '../../db/schema.ts';
import type { DocumentSourceType } from '../../db/tables/retrieval.ts';
import { nowIso } from '../../clock.ts';
import { sha256 } from '../../file-store.ts';
import type { ChunkedDocument } from './chunker.ts';
import { astralFlag, textPieces, wholeTextSql } from '../search/slices.ts';

/** A parsed and chunked document about to be written, and the document row it belongs to. */
export interface DocumentRows {
  job: { id: string; seq: number; collection_id: string; file_hash: string; size: number };
  chunked: ChunkedDocument;
  /** Whether its raw file is made from its text or pages (fileInTextOf): not kept once indexed. */
  fileInText: FileInText;
}

/**
 * The statements that store documents' text, pages and snippets, compiled before the transaction
 * that runs them (which has locked the documents while still leased to it, document-queue.ts):
 * each document's figures of its text, its text's pieces, its pages and its snippets (their
 * offsets into that text, which holds their content: slices.ts), in place of older ones.
 */
export function documentRowWrites(inserts: BulkInserts, items: DocumentRows[]): CompiledQuery[] {
  const { db } = inserts;
  // One statement for the batch; the casts type PostgreSQL's parameters, which SQLite takes as they are.
  const figures = items.map(
    ({ job, chunked, fileInText }) =>
      sql`(${job.id}, cast(${Buffer.byteLength(chunked.text, 'utf8')} as bigint), cast(${astralFlag(chunked.text)} as integer), cast(${fileInText} as integer), cast(${chunked.pages.length} as integer))`,
  );
  const documents = sql`with f (id, text_bytes, text_astral, file_in_text, num_pages) as (values ${sql.join(figures)})
    update documents set text_bytes = f.text_bytes, text_astral = f.text_astral, file_in_text = f.file_in_text, num_pages = f.num_pages, updated_at = ${nowIso()}
    from f where documents.id = f.id`.compile(db);
  const ids = items.map((item) => item.job.id);
  const seqs = items.map((item) => item.job.seq);
  return [
    documents,
    db.deleteFrom('document_pieces').where('document_seq', 'in', seqs).compile(),
    ...inserts.of(
      'document_pieces',
      items.flatMap(({ job, chunked }) => textPieces(chunked.text).map((piece) => ({ document_seq: job.seq, ...piece }))),
    ),
    db.deleteFrom('pages').where('document_id', 'in', ids).compile(),
    db.deleteFrom('chunks').where('document_seq', 'in', seqs).compile(),
    ...inserts.of(
      'pages',
      items.flatMap(({ job, chunked }) =>
        chunked.pages.map((page) => ({
          id: randomUUID(),
          document_id: job.id,
          collection_id: job.collection_id,
          page_index: page.page_index,
          start_index: page.start_index,
          end_index: page.end_index,
        })),
      ),
    ),
    ...(['coarse', 'fine'] as const).flatMap((granularity) =>
      inserts.of(
        'chunks',
        items.flatMap(({ job, chunked }) =>
          chunked[granularity].map((snippet) => ({
            document_seq: job.seq,
            granularity,
            start_index: snippet.start_index,
            end_index: snippet.end_index,
            page_start: snippet.page_span[0],
            page_end: snippet.page_span[1],
          })),
        ),
      ),
    ),
  ];
}

/**
 * How a document's raw file is kept (`documents.file_in_text`): as an object, or, once the
 * document is indexed, not at all when it is made again byte for byte from what is stored: the
 * UTF-8 of its text (a plain text upload) or the JSON of its pages (a text-pages upload).
 */
export const FileInText = { kept: 0, text: 1, pages: 2 } as const;
export type FileInText = (typeof FileInText)[keyof typeof FileInText];

/** How this document's raw file can be made from its parsed pages: checked against the file's hash. */
export function fileInTextOf(chunked: ChunkedDocument, file: { source_type: DocumentSourceType; file_hash: string; size: number }): FileInText {
  if (Number(file.size) === Buffer.byteLength(chunked.text, 'utf8') && sha256(Buffer.from(chunked.text, 'utf8')) === file.file_hash) return FileInText.text;
  const pages = file.source_type === 'text-pages' || file.source_type === 'text-pages-unordered';
  if (pages && sha256(pagesFile(chunked.pages.map((page) => page.content))) === file.file_hash) return FileInText.pages;
  return FileInText.kept;
}

/** A text-pages upload's raw file: its pages as JSON (stored so by the upload, made so again once indexed). */
export const pagesFile = (pages: string[]): Buffer => Buffer.from(JSON.stringify(pages), 'utf8');

/**
 * A document's raw file as it is kept, in one read of its text: its bytes when they are made from
 * its text or pages (file_in_text), otherwise null and the hash of the object holding them.
 */
export async function keptFileOf(db: Kysely<DB>, documentId: string, attempts = 2): Promise<KeptFile | undefined> {
  const row = await db
    .selectFrom('documents')
    .select(['path', 'source_type', 'file_hash', 'file_in_text', sql<string | null>`case when file_in_text <> 0 then coalesce(${wholeTextSql('documents')}, '') end`.as('file_text')])
    .where('id', '=', documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  let bytes: Buffer | null = null;
  if (row.file_in_text === FileInText.text) bytes = Buffer.from(row.file_text!, 'utf8');
  if (row.file_in_text === FileInText.pages) {
    bytes = pagesFile(await pagesOfText(db, documentId, row.file_text!));
    // Text and pages come from two reads: an overwrite indexed between them would mix two
    // versions. The hash tells; read again, the document is found as it is now.
    if (sha256(bytes) !== row.file_hash && attempts > 1) return keptFileOf(db, documentId, attempts - 1);
  }
  return { path: row.path, sourceType: row.source_type, fileHash: row.file_hash, bytes };
}

interface KeptFile {
  path: string;
  sourceType: DocumentSourceType;
  fileHash: string;
  /** The file's bytes when they are made from the text or pages; null: read the object of `fileHash`. */
  bytes: Buffer | null;
}

/** The pages a document was parsed into, in order, sliced from its text (none when it was never parsed). */
export async function storedPagesOf(db: Kysely<DB>, documentId: string): Promise<string[]> {
  const document = await db.selectFrom('documents').select(wholeTextSql('documents').as('text')).where('id', '=', documentId).executeTakeFirst();
  const text = document?.text;
  if (text === null || text === undefined) return [];
  return pagesOfText(db, documentId, text);
}

async function pagesOfText(db: Kysely<DB>, documentId: string, text: string): Promise<string[]> {
  const rows = await db.selectFrom('pages').select(['start_index', 'end_index']).where('document_id', '=', documentId).orderBy('page_index').execute();
  return rows.map((row) => text.slice(row.start_index, row.end_index));
}
