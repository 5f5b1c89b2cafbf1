import * as z from 'zod';
import { CollectionName } from './common.ts';

export const StatusRequest = z.object({ collection_name: CollectionName.nullish() });
export type StatusRequest = z.infer<typeof StatusRequest>;

/** Document counts by status; the other counts always add up to `num_documents`. */
export const StatusResponse = z.object({
  num_documents: z.number().int(),
  num_parsing_documents: z.number().int(),
  num_indexing_documents: z.number().int(),
  num_indexed_documents: z.number().int(),
  num_failed_documents: z.number().int(),
  num_indexed_bytes: z.number().int(),
});
export type StatusResponse = z.infer<typeof StatusResponse>;
