import type { Database } from '../db/schema.ts';
import { renderPageImage } from '../engine/ingest/page-image.ts';
import { NotFound } from './errors.ts';
import type { FileStore } from './file-store.ts';
import type { ProviderActor } from './provider-actor.ts';

/**
 * Page images: every page of a PDF, and an image document's one page, has a JPEG. It is made on
 * the first request for it and kept in `page_images` (deleted with its document), so a page is
 * rendered once. `image_url` is given for pages of such documents only; other pages have none.
 */

export const pageImageMessages = {
  noImage: 'This page has no image.',
} as const;

/** `image_url` of each page (null for documents without page images), in the pages' order. */
export async function pageImageUrls(
  database: Database,
  actor: Pick<ProviderActor, 'pageImageUrl'>,
  pages: { documentId: string; pageIndex: number }[],
): Promise<(string | null)[]> {
  const documentIds = [...new Set(pages.map((page) => page.documentId))];
  if (documentIds.length === 0) return [];
  const rows = await database.db.selectFrom('documents').select(['id', 'file_hash']).where('id', 'in', documentIds).where('has_page_images', '=', 1).execute();
  const fileOf = new Map(rows.map((row) => [row.id, row.file_hash]));
  return Promise.all(
    pages.map((page) => {
      const fileHash = fileOf.get(page.documentId);
      return fileHash ? actor.pageImageUrl(page.documentId, page.pageIndex, fileHash) : null;
    }),
  );
}

/**
 * The JPEG of a page a verified image token names; 404 when the page or its image does not
 * exist, or when the link names a file the document no longer has (it was overwritten).
 */
export async function getPageImage(
  database: Database,
  files: FileStore,
  input: { documentId: string; pageIndex: number; fileVersion: string },
): Promise<Buffer> {
  const { db } = database;
  const current = await db.selectFrom('documents').select('file_hash').where('id', '=', input.documentId).executeTakeFirst();
  if (!current || !input.fileVersion || !current.file_hash.startsWith(input.fileVersion)) throw new NotFound(pageImageMessages.noImage);
  const stored = await db
    .selectFrom('page_images')
    .select('jpeg')
    .where('document_id', '=', input.documentId)
    .where('page_index', '=', input.pageIndex)
    .executeTakeFirst();
  if (stored) return Buffer.from(stored.jpeg);

  const document = await db
    .selectFrom('documents')
    .innerJoin('pages', 'pages.document_id', 'documents.id')
    .select(['documents.path', 'documents.file_hash'])
    .where('documents.id', '=', input.documentId)
    .where('documents.has_page_images', '=', 1)
    .where('pages.page_index', '=', input.pageIndex)
    .executeTakeFirst();
  if (!document) throw new NotFound(pageImageMessages.noImage);
  const jpeg = await renderPageImage(await files.read(document.file_hash), input.pageIndex, document.path).catch(() => null);
  if (!jpeg) throw new NotFound(pageImageMessages.noImage);
  // Two first requests at once render twice and keep one.
  await db
    .insertInto('page_images')
    .values({ document_id: input.documentId, page_index: input.pageIndex, jpeg })
    .onConflict((conflict) => conflict.columns(['document_id', 'page_index']).doNothing())
    .execute()
    .catch(() => {
      // The document was deleted meanwhile (foreign key): the image is still this request's answer.
    });
  return jpeg;
}
