/**
 * Business constants and limits of the server (spec §9 and the provider OpenAPI description),
 * in one place: import them, never retype them.
 */

/** Spec §9: the reranker's per-organization rate limit, in UTF-8 bytes per minute. */
export const RERANK_BYTES_PER_MINUTE = 2_000_000;
/** The window the byte rate limits are counted over. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** OpenAPI /models/*: the fixed overhead counted per document (rerank) or per input (embed). */
export const MODEL_REQUEST_BYTE_OVERHEAD = 150;
/** OpenAPI /models/*: the largest payload one request may carry, in counted bytes. */
export const MODEL_MAX_REQUEST_BYTES = 5_000_000;
