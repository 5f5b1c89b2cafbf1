import * as z from 'zod';
import { MODEL_TEXT_MAX_CHARS } from '../limits.ts';
import { boundedText } from '../text.ts';
import { ModelId } from './common.ts';

/** A text sent to a model; the request's counted bytes are bounded too (MODEL_MAX_REQUEST_BYTES). */
const ModelText = boundedText(MODEL_TEXT_MAX_CHARS);

// Provider API "Models": /models/rerank and /models/embed (OpenAPI RerankRequest, RerankResponse,
// EmbedRequest, EmbedResponse). Model ids are plain strings here, as in the OpenAPI description:
// the server looks them up in its model registry and answers 404 for an unknown one.

/** The reranker ids the OpenAPI description lists. */
export const RERANK_MODEL_IDS = ['zerank-2', 'zerank-1', 'zerank-1-small'] as const;
/** The embedding model ids the OpenAPI description lists. */
export const EMBED_MODEL_IDS = ['zembed-1'] as const;
/** `dimensions` options of `zembed-1`, largest (the default) first. */
export const ZEMBED_1_DIMENSIONS = [2560, 1280, 640, 320, 160, 80, 40] as const;

/** Requested inference mode; null or absent means "fast, falling back to slow". */
export const ModelLatency = z.enum(['fast', 'slow']);
export type ModelLatency = z.infer<typeof ModelLatency>;

export const RerankRequest = z.object({
  model: ModelId,
  query: ModelText,
  /** Only the best `top_n` results are returned (at least 1); absent or null means all of them. */
  top_n: z.number().int().min(1, 'top_n must be at least 1').nullish(),
  documents: z.array(ModelText),
  latency: ModelLatency.nullish(),
});
export type RerankRequest = z.infer<typeof RerankRequest>;

export const RerankResult = z.object({
  /** Position of the document in the request's `documents`. */
  index: z.number().int(),
  /** 0..1; depends only on the query and this one document. */
  relevance_score: z.number(),
});
export type RerankResult = z.infer<typeof RerankResult>;

export const RerankResponse = z.object({
  /** Descending relevance. */
  results: z.array(RerankResult),
  total_bytes: z.number().int(),
  total_tokens: z.number().int(),
  actual_latency_mode: ModelLatency,
  /** Seconds from request received to response ready. */
  e2e_latency: z.number(),
  /** Seconds spent scoring. */
  inference_latency: z.number(),
});
export type RerankResponse = z.infer<typeof RerankResponse>;

export const EmbedInputType = z.enum(['query', 'document']);
export type EmbedInputType = z.infer<typeof EmbedInputType>;

export const EmbedEncodingFormat = z.enum(['float', 'base64']);
export type EmbedEncodingFormat = z.infer<typeof EmbedEncodingFormat>;

export const EmbedRequest = z.object({
  model: ModelId,
  input_type: EmbedInputType,
  input: z.union([ModelText, z.array(ModelText)]),
  /** One of the model's options (zembed-1: ZEMBED_1_DIMENSIONS); absent or null means its largest. */
  dimensions: z.number().int().nullish(),
  /** `base64` is little-endian float32 bytes, base64-encoded. */
  encoding_format: EmbedEncodingFormat.default('float'),
  latency: ModelLatency.nullish(),
});
export type EmbedRequest = z.infer<typeof EmbedRequest>;

export const EmbedResult = z.object({ embedding: z.union([z.array(z.number()), z.string()]) });
export type EmbedResult = z.infer<typeof EmbedResult>;

export const EmbedResponse = z.object({
  /** In the order of `input`. */
  results: z.array(EmbedResult),
  usage: z.object({ total_bytes: z.number().int(), total_tokens: z.number().int() }),
});
export type EmbedResponse = z.infer<typeof EmbedResponse>;
