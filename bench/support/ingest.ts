import type ZeroEntropy from 'zeroentropy';
import type { BenchDocument } from './corpus.ts';
import { sleep } from './stats.ts';

export interface IngestFigures {
  documents: number;
  megabytes: number;
  uploadSeconds: number;
  /** From the first upload until get-status shows every document final. */
  seconds: number;
  megabytesPerSecond: number;
  documentsPerSecond: number;
  failedUploads: number;
  failedDocuments: number;
  /** A failure's message, for the report. */
  firstError: string | null;
}

/**
 * Uploads documents through the official SDK, `inFlight` requests at a time (its default
 * retries on), then polls get-status until every one is indexed or failed.
 */
export async function ingest(
  client: ZeroEntropy,
  collection: string,
  documents: BenchDocument[],
  options: { inFlight?: number; metadata?: (i: number) => Record<string, string>; overwrite?: boolean; timeoutSeconds?: number } = {},
): Promise<IngestFigures> {
  const before = await client.status.getStatus({ collection_name: collection });
  const started = performance.now();
  let cursor = 0;
  let failedUploads = 0;
  let firstError: string | null = null;
  await Promise.all(
    Array.from({ length: options.inFlight ?? 8 }, async () => {
      while (cursor < documents.length) {
        const i = cursor++;
        const document = documents[i]!;
        try {
          await client.documents.add({
            collection_name: collection,
            path: document.path,
            content: document.content,
            metadata: options.metadata?.(i) ?? { group: `g${i % 10}` },
            overwrite: options.overwrite ?? false,
          });
        } catch (error) {
          failedUploads++;
          firstError ??= String((error as Error).message).slice(0, 200);
        }
      }
    }),
  );
  const uploaded = performance.now();
  let status = before;
  const deadline = started + (options.timeoutSeconds ?? 1800) * 1000;
  for (;;) {
    const asked = performance.now();
    status = await client.status.getStatus({ collection_name: collection });
    const final = status.num_indexed_documents + status.num_failed_documents;
    if (final >= status.num_documents || performance.now() > deadline) break;
    // The poll waits ten times as long as its call took: counting a large collection's statuses
    // is work for the database, which a poll every 50 ms would take from the indexing it measures.
    await sleep(Math.max(50, 10 * (performance.now() - asked)));
  }
  const seconds = (performance.now() - started) / 1000;
  const megabytes = documents.reduce((sum, document) => sum + document.bytes, 0) / 1e6;
  return {
    documents: documents.length,
    megabytes,
    uploadSeconds: (uploaded - started) / 1000,
    seconds,
    megabytesPerSecond: megabytes / seconds,
    documentsPerSecond: documents.length / seconds,
    failedUploads,
    failedDocuments: status.num_failed_documents - before.num_failed_documents,
    firstError,
  };
}
