import * as z from 'zod';

// Shapes shared by the provider API's route groups (OpenAPI: DefaultResponse, DocumentMetadataJson ...).

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** Every provider write answers with this body; the message is always "Success!". */
export const DefaultResponse = z.object({ message: z.string().default('Success!') });
export type DefaultResponse = z.infer<typeof DefaultResponse>;

export const CollectionName = z
  .string()
  .min(1, 'must not be empty')
  .refine((name) => utf8Bytes(name) <= 1024, 'must not exceed 1024 UTF-8 bytes');

export const DocumentIndexStatus = z.enum([
  'not_parsed',
  'parsing',
  'not_indexed',
  'indexing',
  'indexed',
  'parsing_failed',
  'indexing_failed',
]);
export type DocumentIndexStatus = z.infer<typeof DocumentIndexStatus>;

/**
 * `dict[str, str | list[str]]`; attribute names are alphanumeric (plus `-` and `_`), and list
 * attributes are prefixed `list:` (the metadata filtering rules of the provider documentation).
 * The UTF-8 JSON must stay under 65536 bytes.
 */
export const DocumentMetadata = z
  .record(z.string(), z.union([z.string(), z.array(z.string())]))
  .superRefine((metadata, context) => {
    for (const [key, value] of Object.entries(metadata)) {
      const isList = key.startsWith('list:');
      const name = isList ? key.slice('list:'.length) : key;
      if (!/^[A-Za-z0-9_-]+$/.test(name)) {
        context.addIssue({ code: 'custom', path: [key], message: 'attribute names must be alphanumeric (hyphens and underscores allowed)' });
      } else if (isList !== Array.isArray(value)) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: isList ? 'a `list:` attribute must be a list of strings' : 'a list of strings needs an attribute name prefixed with `list:`',
        });
      }
    }
    if (utf8Bytes(JSON.stringify(metadata)) >= 65536) {
      context.addIssue({ code: 'custom', message: 'metadata JSON must be less than 65536 UTF-8 bytes' });
    }
  });
export type DocumentMetadata = z.infer<typeof DocumentMetadata>;

/**
 * A metadata filter (OpenAPI StrJson): `{attribute: {$op: value}}`, `$and`/`$or` arrays of
 * filters. Its structure is checked by the search service, which answers 422 with the reason.
 */
export const MetadataFilter = z.record(z.string(), z.unknown());
export type MetadataFilter = z.infer<typeof MetadataFilter>;

/** The query text limit: 4096 UTF-8 bytes. */
export const QueryText = z.string().refine((query) => utf8Bytes(query) <= 4096, 'must not exceed 4096 UTF-8 bytes');

export const LatencyMode = z.enum(['low', 'high']).default('low');
