import type { Database } from '../../src/db/schema.ts';
import { addDocumentEvent } from '../../src/domain/usage-events.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { FileStore } from '../../src/file-store.ts';
import { SEARCH_QUERIES } from '../search-corpus.ts';

/**
 * Every query kind's top 10 in every collection, straight from the index, with content, pages
 * and metadata: what a migration of stored rows must leave exactly as it was. `extraQuery` names
 * words of the test's own documents.
 */
export async function everyRanking(database: Database, files: FileStore, extraQuery: string): Promise<unknown[]> {
  const index = createEngine({ database, files, usage: addDocumentEvent }).search;
  const collections = await database.db.selectFrom('collections').select('id').orderBy('name').execute();
  const results: unknown[] = [];
  for (const { id } of collections) {
    for (const query of [...SEARCH_QUERIES, extraQuery]) {
      const request = { collectionId: id, query, k: 10, filter: null };
      results.push(
        (await index.topDocuments(request)).map((hit) => [hit.path, hit.score]),
        (await index.topPages({ ...request, includeContent: true, includeMetadata: false })).map((hit) => [hit.path, hit.pageIndex, hit.score, hit.content]),
        (await index.topSnippets({ ...request, granularity: 'coarse', includeMetadata: true })).map((hit) => [hit.path, hit.startIndex, hit.score, hit.content, hit.metadata]),
        (await index.topSnippets({ ...request, granularity: 'fine', includeMetadata: false })).map((hit) => [hit.path, hit.startIndex, hit.pageStart, hit.score, hit.content]),
      );
    }
  }
  return results;
}
