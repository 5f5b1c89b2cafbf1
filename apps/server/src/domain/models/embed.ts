import { endianness } from 'node:os';
import type { EmbedRequest, EmbedResponse } from '@sift/contracts';
import type { Database } from '../../db/schema.ts';
import { countTokens } from '../../engine/ingest/tokens.ts';
import { Invalid } from '../errors.ts';
import { MODEL_MAX_REQUEST_BYTES, MODEL_REQUEST_BYTE_OVERHEAD } from '../limits.ts';
import type { ProviderActor } from '../provider-actor.ts';
import { recordEmbedUsage } from './embed-usage.ts';
import { callingModel } from './provider-failure.ts';
import { builtInModels, type ModelRegistry } from './registry.ts';
import { utf8Bytes } from '../../engine/models/text.ts';

/** OpenAPI: sum(150 + bytes of s) over the inputs. */
export function embedRequestBytes(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + MODEL_REQUEST_BYTE_OVERHEAD + utf8Bytes(text), 0);
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** Little-endian float32 bytes, base64-encoded (the OpenAPI `base64` encoding). */
export function float32Base64(vector: Float32Array): string {
  // On little-endian machines (all the usual ones) the array's memory already is that format.
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

/** Array.from on a typed array takes V8's slow generic path; a counted loop is much faster. */
function toNumbers(vector: Float32Array): number[] {
  const numbers = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) numbers[i] = vector[i]!;
  return numbers;
}

/**
 * /models/embed: the embeddings, and one embedding usage event for the organization and model
 * (calls, request bytes, tokens).
 */
export async function embed(database: Database, actor: Pick<ProviderActor, 'organizationId' | 'now' | 'models'>, input: EmbedRequest): Promise<EmbedResponse> {
  const started = performance.now();
  const response = await embedTexts(input, actor.models);
  await recordEmbedUsage(database, {
    organizationId: actor.organizationId,
    embeddingModel: input.model,
    requestBytes: response.usage.total_bytes,
    requestTokens: response.usage.total_tokens,
    timeTakenMs: performance.now() - started,
    at: (actor.now ?? Date.now)(),
  });
  return response;
}

/**
 * Embeds each input with the requested model, in input order. Nothing is stored and the
 * vectors depend on nothing but the text, the model and `dimensions`.
 */
export async function embedTexts(input: EmbedRequest, models: ModelRegistry = builtInModels): Promise<EmbedResponse> {
  const model = models.embedModel(input.model);
  const dimensions = input.dimensions ?? model.dimensions?.[0];
  if (model.dimensions && !model.dimensions.includes(dimensions!)) {
    throw new Invalid(`dimensions must be one of ${JSON.stringify(model.dimensions)} for ${model.id}.`);
  }
  const texts = typeof input.input === 'string' ? [input.input] : input.input;
  const totalBytes = embedRequestBytes(texts);
  if (totalBytes > MODEL_MAX_REQUEST_BYTES) {
    throw new Invalid(`The request is ${totalBytes} bytes; the maximum per request is ${MODEL_MAX_REQUEST_BYTES} bytes.`);
  }
  const vectors = await callingModel(() => model.embed(texts, { inputType: input.input_type, dimensions }));
  // A configured model that cannot change its size answers its own: a client asking another is told.
  if (dimensions !== undefined && vectors.some((vector) => vector.length !== dimensions)) {
    throw new Invalid(`dimensions ${dimensions} is not available: the configured embedding model gives ${vectors[0]!.length}.`);
  }
  return {
    results: vectors.map((vector) => ({
      embedding: input.encoding_format === 'base64' ? float32Base64(vector) : toNumbers(vector),
    })),
    usage: { total_bytes: totalBytes, total_tokens: texts.reduce((sum, text) => sum + countTokens(text), 0) },
  };
}
