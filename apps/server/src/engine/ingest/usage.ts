import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** The collection a document belongs to, as usage is recorded for it. */
export interface IngestCollection {
  organizationId: string;
  collectionId: string;
  collectionName: string;
}

export type DocumentCounters = Partial<{
  count: number;
  fileBytes: number;
  contentTokens: number;
  coarseChunks: number;
  fineChunks: number;
  pages: number;
  ocrPages: number;
  timeMs: number;
}>;

/**
 * Records documents parsed or indexed, in the transaction that made them so: the port through
 * which the domain counts usage (domain/usage-events.ts addDocumentEvent), given to the engine.
 */
export type DocumentUsage = (trx: Kysely<DB>, collection: IngestCollection, event: 'parsed' | 'indexed', counters: DocumentCounters) => Promise<void>;
