import { randomUUID } from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import { bulkInserts } from '../../db/bulk-insert.ts';
import type { DB } from '../../db/schema.ts';
import { nowIso } from '../../domain/clock.ts';
import type { ChunkedDocument } from './chunker.ts';

/** A parsed and chunked document about to be written, and the document row it belongs to. */
export interface DocumentRows {
  job: { id: string; collection_id: string };
  chunked: ChunkedDocument;
}

/**
 * The statements that store documents' text, pages and snippets, compiled before the transaction
 * that runs them: `holds` set each document's text only while `owner` still leases it (one per
 * document, in order, so a lost lease is seen), `writes` replace its pages and snippets.
 */
export function documentRowWrites(db: Kysely<DB>, owner: string, items: DocumentRows[]): { holds: CompiledQuery[]; writes: CompiledQuery[] } {
  const now = nowIso();
  const holds = items.map((item) =>
    db
      .updateTable('documents')
      .set({
        text: item.chunked.text,
        text_bytes: Buffer.byteLength(item.chunked.text, 'utf8'),
        num_pages: item.chunked.pages.length,
        updated_at: now,
      })
      .where('id', '=', item.job.id)
      .where('lease_owner', '=', owner)
      .compile(),
  );
  const ids = items.map((item) => item.job.id);
  const writes = [
    db.deleteFrom('pages').where('document_id', 'in', ids).compile(),
    db.deleteFrom('chunks').where('document_id', 'in', ids).compile(),
    ...bulkInserts(
      db,
      'pages',
      items.flatMap(({ job, chunked }) =>
        chunked.pages.map((page) => ({
          id: randomUUID(),
          document_id: job.id,
          collection_id: job.collection_id,
          page_index: page.page_index,
          content: page.content,
          start_index: page.start_index,
          end_index: page.end_index,
        })),
      ),
    ),
    ...(['coarse', 'fine'] as const).flatMap((granularity) =>
      bulkInserts(
        db,
        'chunks',
        items.flatMap(({ job, chunked }) =>
          chunked[granularity].map((snippet) => ({
            document_id: job.id,
            collection_id: job.collection_id,
            granularity,
            content: snippet.content,
            start_index: snippet.start_index,
            end_index: snippet.end_index,
            page_start: snippet.page_span[0],
            page_end: snippet.page_span[1],
          })),
        ),
      ),
    ),
  ];
  return { holds, writes };
}

/** The pages a document was parsed into, in order (none when it was never parsed). */
export async function storedPagesOf(db: Kysely<DB>, documentId: string): Promise<string[]> {
  const rows = await db.selectFrom('pages').select('content').where('document_id', '=', documentId).orderBy('page_index').execute();
  return rows.map((row) => row.content);
}
