import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { configuredModels } from '../src/engine/models/configured.ts';
import { localModelPool } from '../src/engine/models/local/pool.ts';
import { HIDDEN, type TinyWeights, VOCABULARY, writeTinyModel } from './fixtures/tiny-model.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * SIFT_*_PROVIDER=local: a tiny model with random weights (fixtures/tiny-model.ts) goes through
 * the tokenizer, ONNX Runtime on a worker thread, pooling and normalisation; every output is
 * compared with the same network computed here in plain JavaScript from the same weights.
 */
const root = mkdtempSync(join(tmpdir(), 'sift-tiny-model-'));
const embeddingDir = join(root, 'embedding');
const clsDir = join(root, 'cls');
const crossEncoderDir = join(root, 'cross-encoder');
const weights = {
  embedding: writeTinyModel(embeddingDir, 'embedding'),
  cls: writeTinyModel(clsDir, 'embedding', { pooling: 'cls', normalize: false, seed: 7 }),
  crossEncoder: writeTinyModel(crossEncoderDir, 'cross-encoder'),
};
let h: Harness;
let apiKey: string;

beforeAll(async () => {
  h = await startHarness({ SIFT_EMBEDDING_PROVIDER: 'local', SIFT_EMBEDDING_MODEL: embeddingDir, SIFT_RERANK_PROVIDER: 'local', SIFT_RERANK_MODEL: crossEncoderDir });
  ({ apiKey } = await bootstrap(h.database, h.keyring, { email: 'local@example.com', name: 'Local', organizationName: 'Local' }));
});
afterAll(async () => {
  await h.close();
  rmSync(root, { recursive: true, force: true });
});

// ---- The reference: BERT-style WordPiece ids written out by hand, and the network in JavaScript. ----

const id = (token: string) => VOCABULARY.indexOf(token);
interface Tokens {
  ids: number[];
  types: number[];
}
const single = (...tokens: string[]): Tokens => ({ ids: ['[CLS]', ...tokens, '[SEP]'].map(id), types: tokens.map(() => 0).concat(0, 0) });
const pair = (a: string[], b: string[]): Tokens => ({
  ids: ['[CLS]', ...a, '[SEP]', ...b, '[SEP]'].map(id),
  types: [0, ...a.map(() => 0), 0, ...b.map(() => 1), 1],
});

/** tanh((E[id] + T[type]) W) for each token. */
function hiddenStates(w: TinyWeights, tokens: Tokens): number[][] {
  return tokens.ids.map((token, position) => {
    const input = Array.from({ length: HIDDEN }, (_, j) => w.embeddings[token * HIDDEN + j]! + w.types[tokens.types[position]! * HIDDEN + j]!);
    return Array.from({ length: HIDDEN }, (_, k) => Math.tanh(input.reduce((sum, x, j) => sum + x * w.dense[j * HIDDEN + k]!, 0)));
  });
}
const mean = (states: number[][]) => states[0]!.map((_, j) => states.reduce((sum, state) => sum + state[j]!, 0) / states.length);
const unit = (v: number[]) => {
  const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  return v.map((x) => x / norm);
};
/** The cross-encoder's logit: the token states summed, times C, plus c. */
const logit = (w: TinyWeights, tokens: Tokens) =>
  hiddenStates(w, tokens)
    .reduce((sum, state) => sum.map((x, j) => x + state[j]!), new Array<number>(HIDDEN).fill(0))
    .reduce((sum, x, j) => sum + x * w.classifier[j]!, w.bias[0]!);
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const expectClose = (actual: ArrayLike<number>, expected: number[]) => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((x, i) => expect(actual[i]).toBeCloseTo(x, 5));
};

const texts: [string, Tokens][] = [
  ['The cats sat on the mat.', single('the', 'cat', '##s', 'sat', 'on', 'the', 'mat', '.')],
  ['Searching indexed documents', single('search', '##ing', 'index', '##ed', 'document', '##s')],
  ['Paris is the capital of France?', single('paris', 'is', 'the', 'capital', 'of', 'france', '?')],
  ['dog', single('dog')],
  ['Zebra!', single('[UNK]', '!')],
];

describe('local embedding model', () => {
  test('/v1/models/embed: tokenizer, ONNX, mean pooling over the mask and normalisation match the reference', async () => {
    const response = await h.call('/v1/models/embed', { model: 'zembed-1', input_type: 'document', input: texts.map(([text]) => text), encoding_format: 'float' }, apiKey);
    expect(response.status).toBe(200);
    response.body.results.forEach((result: { embedding: number[] }, i: number) => {
      expectClose(result.embedding, unit(mean(hiddenStates(weights.embedding, texts[i]![1]))));
    });
  });

  test('a batch past the thread batch size, of texts of every length, gives each text its own vector (padding changes nothing)', async () => {
    const many = Array.from({ length: 40 }, (_, i) => texts[i % texts.length]!);
    const response = await h.call('/v1/models/embed', { model: 'zembed-1', input_type: 'query', input: many.map(([text]) => text), encoding_format: 'float' }, apiKey);
    expect(response.status).toBe(200);
    response.body.results.forEach((result: { embedding: number[] }, i: number) => {
      expectClose(result.embedding, unit(mean(hiddenStates(weights.embedding, many[i]![1]))));
    });
  });

  test('CLS pooling without a Normalize module gives the first token state as it is', async () => {
    const pool = localModelPool(clsDir, 'embedding');
    try {
      const vectors = await pool.embedder('zembed-1').embed(texts.map(([text]) => text), { inputType: 'document' });
      vectors.forEach((vector, i) => expectClose(vector, hiddenStates(weights.cls, texts[i]![1])[0]!));
    } finally {
      await pool.close();
    }
  });
});

describe('local cross-encoder', () => {
  test('/v1/models/rerank: each (query, document) pair is scored sigmoid(logit) of the reference, best first', async () => {
    const query = 'cat on the mat';
    const queryTokens = ['cat', 'on', 'the', 'mat'];
    const response = await h.call('/v1/models/rerank', { model: 'zerank-2', query, documents: texts.map(([text]) => text) }, apiKey);
    expect(response.status).toBe(200);
    const expected = texts.map(([, tokens], index) => ({ index, relevance_score: sigmoid(logit(weights.crossEncoder, pair(queryTokens, tokens.ids.slice(1, -1).map((t) => VOCABULARY[t]!)))) }));
    const byIndex = new Map<number, number>(response.body.results.map((r: { index: number; relevance_score: number }) => [r.index, r.relevance_score]));
    for (const { index, relevance_score } of expected) expect(byIndex.get(index)).toBeCloseTo(relevance_score, 5);
    const scores = response.body.results.map((r: { relevance_score: number }) => r.relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The pairs score apart: the order is the model's, not the request's.
    expect(new Set(scores.map((x: number) => x.toFixed(6))).size).toBe(texts.length);
  });

  test('40 documents of every length (two thread batches, padded) are each scored as alone', async () => {
    const many = Array.from({ length: 40 }, (_, i) => texts[(i * 3) % texts.length]!);
    const response = await h.call('/v1/models/rerank', { model: 'zerank-1', query: 'dog', documents: many.map(([text]) => text) }, apiKey);
    expect(response.status).toBe(200);
    for (const { index, relevance_score } of response.body.results) {
      const document = many[index]![1].ids.slice(1, -1).map((t) => VOCABULARY[t]!);
      expect(relevance_score).toBeCloseTo(sigmoid(logit(weights.crossEncoder, pair(['dog'], document))), 5);
    }
  });

  test('a model directory without its files stops the start, naming what is missing', () => {
    const empty = join(root, 'empty');
    expect(() => configuredModels({ embedding: null, rerank: { provider: 'local', model: empty } })).toThrow(/lacks tokenizer\.json, config\.json, onnx\/model\.onnx/);
  });
});
