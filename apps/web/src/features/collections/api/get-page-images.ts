import { queryOptions } from '@tanstack/react-query';
import { createProviderClient } from '@/lib/provider-client';

/** The Collections screen shows at most this many page images of one document. */
export const MAX_PAGE_IMAGES = 50;

/**
 * The image URLs of a document's pages (a PDF's pages, an image's one page), in page order:
 * get-document-info for the page count, then get-page-info for each page. [] when its pages
 * have no images (text, HTML, DOCX ...).
 */
export async function getPageImages(workingKey: string, collectionName: string, path: string): Promise<string[]> {
  const client = createProviderClient(workingKey);
  const { document } = await client.documents.getInfo({ collection_name: collectionName, path });
  const count = Math.min(document.num_pages ?? 0, MAX_PAGE_IMAGES);
  const pages = await Promise.all(
    Array.from({ length: count }, (_, page_index) => client.documents.getPageInfo({ collection_name: collectionName, path, page_index })),
  );
  return pages.map(({ page }) => page.image_url).filter((url): url is string => url !== null);
}

/** Held per path like the content, asked for once the document is indexed. */
export const pageImagesQueryOptions = (workingKey: string | null, collectionName: string | null, path: string | null, indexed: boolean) =>
  queryOptions({
    queryKey: ['page-images', workingKey, collectionName, path] as const,
    queryFn: () => getPageImages(workingKey!, collectionName!, path!),
    enabled: workingKey !== null && collectionName !== null && path !== null && indexed,
  });
