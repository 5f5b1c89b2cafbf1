import * as z from 'zod';
import { CollectionName, NewCollectionName } from './common.ts';

export const AddCollectionRequest = z.object({
  collection_name: NewCollectionName,
  /** Accepted for compatibility; one index serves every collection here. */
  num_shards: z
    .number()
    .int()
    .refine((shards) => [1, 8, 16, 32, 64].includes(shards), 'num_shards must be one of [1, 8, 16, 32, 64]')
    .default(1),
});
export type AddCollectionRequest = z.infer<typeof AddCollectionRequest>;

export const GetCollectionListRequest = z.object({}).loose().nullish();

export const GetCollectionListResponse = z.object({ collection_names: z.array(z.string()) });
export type GetCollectionListResponse = z.infer<typeof GetCollectionListResponse>;

export const DeleteCollectionRequest = z.object({ collection_name: CollectionName });
export type DeleteCollectionRequest = z.infer<typeof DeleteCollectionRequest>;
