import * as z from 'zod';
import {
  COLLECTION_NAME_MAX_BYTES,
  DOCUMENT_PATH_MAX_BYTES,
  FILTER_JSON_MAX_BYTES,
  FILTER_JSON_MAX_DEPTH,
  METADATA_JSON_MAX_BYTES,
  METADATA_KEY_MAX_CHARS,
  METADATA_VALUE_MAX_BYTES,
  MODEL_ID_MAX_CHARS,
  QUERY_MAX_BYTES,
  QUERY_MAX_CHARS,
  TOKEN_MAX_CHARS,
} from '../limits.ts';
import { boundedText, byteBoundedText, hasVisibleCharacter, jsonDepth, noLoneSurrogates, printableName, utf8Bytes } from '../text.ts';

// Shapes shared by the provider API's route groups (OpenAPI: DefaultResponse, DocumentMetadataJson ...).

/** Every provider write answers with this body; the message is always "Success!". */
export const DefaultResponse = z.object({ message: z.string().default('Success!') });
export type DefaultResponse = z.infer<typeof DefaultResponse>;

export const CollectionName = printableName(COLLECTION_NAME_MAX_BYTES);
/**
 * The name a new collection is given: also at least one visible character, so it can be told
 * apart in a list. Only at creation: a collection made before this rule can still be named.
 */
export const NewCollectionName = CollectionName.refine(hasVisibleCharacter, 'must contain at least one visible character (not only spaces or invisible characters)');

/** A document's path: what names it in its collection. */
export const DocumentPath = printableName(DOCUMENT_PATH_MAX_BYTES);
/** A bound on paths (`path_gt`, `path_prefix`): any string a path could be compared with. */
export const PathBound = boundedText(DOCUMENT_PATH_MAX_BYTES);

/** A model id; unknown ids are refused by the model registry with 404. */
export const ModelId = boundedText(MODEL_ID_MAX_CHARS);

/** A signed token carried in a URL (`file_url`, `image_url`). */
export const UrlToken = boundedText(TOKEN_MAX_CHARS).min(1);

/**
 * A file's raw bytes, base64-encoded (standard alphabet, padded), as add-document and
 * parse-document take it: anything else is refused with 422 before anything is stored.
 */
export const Base64Data = z.base64('must be valid base64 (standard alphabet, with padding)');

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
const MetadataValue = byteBoundedText(METADATA_VALUE_MAX_BYTES);
export const DocumentMetadata = z
  .record(boundedText(METADATA_KEY_MAX_CHARS), z.union([MetadataValue, z.array(MetadataValue)]))
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
    if (utf8Bytes(JSON.stringify(metadata)) >= METADATA_JSON_MAX_BYTES) {
      context.addIssue({ code: 'custom', message: `metadata JSON must be less than ${METADATA_JSON_MAX_BYTES} UTF-8 bytes` });
    }
  });
export type DocumentMetadata = z.infer<typeof DocumentMetadata>;

/**
 * A metadata filter (OpenAPI StrJson): `{attribute: {$op: value}}`, `$and`/`$or` arrays of
 * filters. Its structure is checked by the search service, which answers 422 with the reason.
 */
export const MetadataFilter = z.record(boundedText(METADATA_KEY_MAX_CHARS), z.unknown()).superRefine((filter, context) => {
  // Measured without recursion first: JSON.stringify of a filter nested 5,000 deep overflows the stack.
  if (jsonDepth(filter) > FILTER_JSON_MAX_DEPTH) {
    context.addIssue({ code: 'custom', message: `the filter must not nest more than ${FILTER_JSON_MAX_DEPTH} levels of objects and arrays` });
  } else if (utf8Bytes(JSON.stringify(filter)) > FILTER_JSON_MAX_BYTES) {
    context.addIssue({ code: 'custom', message: `the filter's JSON must not exceed ${FILTER_JSON_MAX_BYTES} UTF-8 bytes` });
  }
});
export type MetadataFilter = z.infer<typeof MetadataFilter>;

/** The query of top-documents and top-pages: at most 4096 UTF-8 bytes (provider OpenAPI). */
export const QueryText = byteBoundedText(QUERY_MAX_BYTES);

/** The query of top-snippets: at most 4096 characters, a code point counting as one (provider OpenAPI). */
export const QueryChars = z
  .string()
  // Each code point is one or two UTF-16 units, so maxLength is twice the limit; the refinement counts code points.
  .max(QUERY_MAX_CHARS * 2, `must not exceed ${QUERY_MAX_CHARS} characters`)
  .refine(noLoneSurrogates, 'must not contain lone surrogates')
  .refine((query) => [...query].length <= QUERY_MAX_CHARS, `must not exceed ${QUERY_MAX_CHARS} characters`)
  .meta({ description: `At most ${QUERY_MAX_CHARS} characters (Unicode code points).` });

export const LatencyMode = z.enum(['low', 'high']).default('low');
