/**
 * Every length limit of both APIs, in one place: the contracts enforce them, the OpenAPI
 * description states them (maxLength, and the descriptions for byte limits), and the server's
 * 413 names the body limit.
 */

/** The largest request body either API accepts (base64 files included); past it, 413. */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/** Provider OpenAPI AddCollectionRequest: 1024 characters, and at most 1024 UTF-8 bytes. */
export const COLLECTION_NAME_MAX_BYTES = 1024;
/** A document path (the index keys on it; PostgreSQL's B-tree rows must stay well under 2704 bytes). */
export const DOCUMENT_PATH_MAX_BYTES = 1024;
/** A metadata attribute name, `list:` prefix included. */
export const METADATA_KEY_MAX_CHARS = 128;
/** One metadata value (each element of a `list:` attribute): it is indexed like a path. */
export const METADATA_VALUE_MAX_BYTES = 1024;
/** Provider OpenAPI: the metadata's UTF-8 JSON must be less than this many bytes. */
export const METADATA_JSON_MAX_BYTES = 65_536;
/** A query filter's JSON. */
export const FILTER_JSON_MAX_BYTES = 65_536;
/**
 * Levels of objects and arrays a filter's JSON may nest: the search service's own limit (16
 * levels of $and/$or, each an object and an array) with room for the conditions at the bottom.
 */
export const FILTER_JSON_MAX_DEPTH = 40;
/** Levels of objects and arrays any JSON body or query may nest (checked before anything walks it recursively). */
export const JSON_MAX_DEPTH = 64;
/** Provider OpenAPI: top-documents and top-pages queries, in UTF-8 bytes. */
export const QUERY_MAX_BYTES = 4096;
/** Provider OpenAPI: top-snippets queries, in characters (Unicode code points). */
export const QUERY_MAX_CHARS = 4096;
/** A model id (`zerank-2`, `zembed-1` ...). */
export const MODEL_ID_MAX_CHARS = 128;
/** Names people give: organizations, API keys, users. */
export const NAME_MAX_CHARS = 200;
/** An e-mail address (RFC 5321's path limit). */
export const EMAIL_MAX_CHARS = 254;
/** Opaque tokens: signed links, invites, marketplace tokens, checkout ids. */
export const TOKEN_MAX_CHARS = 4096;
/** One text sent to a model; a request's total is bounded by MODEL_MAX_REQUEST_BYTES as well. */
export const MODEL_TEXT_MAX_CHARS = 5_000_000;
