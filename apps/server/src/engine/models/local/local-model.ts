import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';

/**
 * A model from a local directory in the Hugging Face layout, run with ONNX Runtime on this thread
 * (pool.ts runs it on worker threads): tokenizer.json (+ tokenizer_config.json), config.json,
 * onnx/model.onnx and, for an embedding model, sentence-transformers' modules.json and
 * 1_Pooling/config.json. Nothing is downloaded: the operator puts the files there.
 *
 * - `embedding`: the transformer's token states (`last_hidden_state`, or `sentence_embedding`
 *   when the export already pooled), pooled as the Pooling config says (mean over the attention
 *   mask, or the first token), L2-normalised when modules.json has a Normalize module.
 * - `cross-encoder`: the query and each document as a pair; one logit is squashed by the sigmoid
 *   (ms-marco-MiniLM, bge-reranker), two by softmax (the second class), so scores are in 0..1.
 */

export type LocalModelKind = 'embedding' | 'cross-encoder';

const readJson = (path: string): Record<string, unknown> => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {});

/** The files a model directory must have, or what is missing: checked when Sift starts. */
export function missingModelFiles(dir: string): string[] {
  return ['tokenizer.json', 'config.json', join('onnx', 'model.onnx')].filter((file) => !existsSync(join(dir, file)));
}

interface Settings {
  pooling: 'mean' | 'cls';
  normalize: boolean;
  maxLength: number;
  padId: number;
}

function settingsOf(dir: string, tokenizer: Tokenizer): Settings {
  const tokenizerConfig = readJson(join(dir, 'tokenizer_config.json'));
  const config = readJson(join(dir, 'config.json'));
  const modules = existsSync(join(dir, 'modules.json')) ? (JSON.parse(readFileSync(join(dir, 'modules.json'), 'utf8')) as { type: string; path: string }[]) : [];
  const poolingPath = modules.find((module) => module.type.endsWith('.Pooling'))?.path ?? '1_Pooling';
  const pooling = readJson(join(dir, poolingPath, 'config.json'));
  // Tokenizers often say model_max_length 1e30 ("no limit"): the position embeddings are the limit.
  const limits = [tokenizerConfig.model_max_length, config.max_position_embeddings, 512].filter((n): n is number => typeof n === 'number' && n > 0);
  const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : '[PAD]';
  return {
    pooling: pooling.pooling_mode_cls_token === true ? 'cls' : 'mean',
    normalize: modules.some((module) => module.type.endsWith('.Normalize')),
    maxLength: Math.min(...limits),
    padId: tokenizer.token_to_id(padToken) ?? 0,
  };
}

interface Encoded {
  ids: number[];
  mask: number[];
  types: number[];
}

export interface LocalModel {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  score(query: string, documents: readonly string[]): Promise<number[]>;
}

export async function openLocalModel(dir: string, kind: LocalModelKind, options: { intraOpThreads?: number } = {}): Promise<LocalModel> {
  const tokenizer = new Tokenizer(readJson(join(dir, 'tokenizer.json')), readJson(join(dir, 'tokenizer_config.json')));
  const settings = settingsOf(dir, tokenizer);
  const session = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'), {
    executionProviders: ['cpu'],
    ...(options.intraOpThreads ? { intraOpNumThreads: options.intraOpThreads } : {}),
  });
  // Past this many characters a text cannot fit maxLength tokens: cut before tokenizing.
  const maxChars = settings.maxLength * 12;
  const encode = (text: string, pair?: string): Encoded => {
    const encoding = tokenizer.encode(text.slice(0, maxChars), { text_pair: pair?.slice(0, maxChars) ?? null, return_token_type_ids: true });
    return truncated({ ids: encoding.ids, mask: encoding.attention_mask, types: encoding.token_type_ids }, settings.maxLength);
  };
  return {
    embed: async (texts) => {
      if (texts.length === 0) return [];
      const encoded = texts.map((text) => encode(text));
      const outputs = await session.run(feeds(session, encoded, settings.padId));
      return pooled(outputs, encoded, settings);
    },
    score: async (query, documents) => {
      if (documents.length === 0) return [];
      const outputs = await session.run(feeds(session, documents.map((document) => encode(query, document)), settings.padId));
      return relevance(outputs[session.outputNames[0]!]!);
    },
  };
}

/** At most `max` tokens: the head, then the last token (the closing separator) kept. */
function truncated(encoded: Encoded, max: number): Encoded {
  if (encoded.ids.length <= max) return encoded;
  const cut = (values: number[]) => [...values.slice(0, max - 1), values[values.length - 1]!];
  return { ids: cut(encoded.ids), mask: cut(encoded.mask), types: cut(encoded.types) };
}

/** The batch as int64 tensors padded to its longest text, only the inputs the model declares. */
function feeds(session: ort.InferenceSession, batch: Encoded[], padId: number): Record<string, ort.Tensor> {
  const length = Math.max(...batch.map((encoded) => encoded.ids.length));
  const tensor = (pick: (encoded: Encoded) => number[], pad: number) => {
    const data = new BigInt64Array(batch.length * length).fill(BigInt(pad));
    batch.forEach((encoded, row) => pick(encoded).forEach((value, column) => (data[row * length + column] = BigInt(value))));
    return new ort.Tensor('int64', data, [batch.length, length]);
  };
  const all: Record<string, () => ort.Tensor> = {
    input_ids: () => tensor((e) => e.ids, padId),
    attention_mask: () => tensor((e) => e.mask, 0),
    token_type_ids: () => tensor((e) => e.types, 0),
  };
  return Object.fromEntries(session.inputNames.filter((name) => all[name]).map((name) => [name, all[name]!()]));
}

function pooled(outputs: ort.InferenceSession.OnnxValueMapType, batch: Encoded[], settings: Settings): Float32Array[] {
  const sentence = outputs.sentence_embedding;
  const vectors = sentence ? rows(sentence) : poolTokens(outputs.last_hidden_state ?? Object.values(outputs)[0]!, batch, settings.pooling);
  if (settings.normalize) for (const vector of vectors) normalizeInPlace(vector);
  return vectors;
}

function rows(tensor: ort.Tensor): Float32Array[] {
  const [count, width] = tensor.dims as [number, number];
  const data = tensor.data as Float32Array;
  return Array.from({ length: count }, (_, i) => data.slice(i * width, (i + 1) * width));
}

/** Mean of the token states under the attention mask, or the first token's state. */
function poolTokens(tensor: ort.Tensor, batch: Encoded[], pooling: 'mean' | 'cls'): Float32Array[] {
  const [, length, width] = tensor.dims as [number, number, number];
  const data = tensor.data as Float32Array;
  return batch.map((encoded, row) => {
    const vector = new Float32Array(width);
    const base = row * length * width;
    if (pooling === 'cls') return data.slice(base, base + width);
    let tokens = 0;
    encoded.mask.forEach((on, position) => {
      if (!on) return;
      tokens++;
      for (let j = 0; j < width; j++) vector[j]! += data[base + position * width + j]!;
    });
    for (let j = 0; j < width; j++) vector[j]! /= Math.max(1, tokens);
    return vector;
  });
}

function normalizeInPlace(vector: Float32Array): void {
  let norm = 0;
  for (const x of vector) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
}

/** A cross-encoder's logits as 0..1 relevance: sigmoid of one, softmax's second class of two. */
function relevance(logits: ort.Tensor): number[] {
  const [count, labels] = logits.dims as [number, number];
  const data = logits.data as Float32Array;
  return Array.from({ length: count }, (_, i) => {
    if (labels === 1) return 1 / (1 + Math.exp(-data[i]!));
    const a = data[i * labels]!;
    const b = data[i * labels + 1]!;
    return 1 / (1 + Math.exp(a - b));
  });
}
