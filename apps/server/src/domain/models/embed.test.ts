import { ZEMBED_1_DIMENSIONS } from '@sift/contracts';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Invalid, NotFound } from '../errors.ts';
import { embedRequestBytes, embedTexts as embed } from './embed.ts';

const vector = async (text: string, dimensions?: number) =>
  (await embed({ model: 'zembed-1', input_type: 'document', input: text, dimensions, encoding_format: 'float' })).results[0]!
    .embedding as number[];
const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('hashed n-gram embedding (zembed-1)', () => {
  test('each dimensions option gives a unit vector of that length; the default is 2560', async () => {
    expect(await vector('Sift indexes documents.')).toHaveLength(2560);
    for (const dimensions of ZEMBED_1_DIMENSIONS) {
      const v = await vector('Sift indexes documents.', dimensions);
      expect(v).toHaveLength(dimensions);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  test('any text with a word embeds to a unit vector, and the same text always to the same one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80 }).filter((s) => /[\p{L}\p{N}]/u.test(s)), async (text) => {
        const v = await vector(text, 160);
        expect(norm(v)).toBeCloseTo(1, 5);
        expect(await vector(text, 160)).toEqual(v);
      }),
      { numRuns: 100 },
    );
  });

  test('query and document inputs embed alike: the built-in model is symmetric', async () => {
    const as = (input_type: 'query' | 'document') =>
      embed({ model: 'zembed-1', input_type, input: 'symmetric model', dimensions: 80, encoding_format: 'float' });
    expect((await as('query')).results).toEqual((await as('document')).results);
  });

  test('a text without words embeds to the zero vector', async () => {
    expect((await vector('  ... ', 40)).every((x) => x === 0)).toBe(true);
  });

  test('texts sharing words are closer than unrelated texts', async () => {
    const query = await vector('how do I rotate an API key', 640);
    const related = await vector('Rotating API keys: create a new key, then delete the old key.', 640);
    const unrelated = await vector('The recipe needs flour, eggs and two spoons of sugar.', 640);
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.2);
  });

  test('base64 output decodes, as little-endian float32, to exactly the float output', async () => {
    const input = ['first text', 'second, longer text about embeddings', ''];
    const request = { model: 'zembed-1', input_type: 'query' as const, input, dimensions: 320 };
    const floats = await embed({ ...request, encoding_format: 'float' });
    const encoded = await embed({ ...request, encoding_format: 'base64' });
    expect(encoded.results).toHaveLength(3);
    encoded.results.forEach((result, i) => {
      const bytes = Buffer.from(result.embedding as string, 'base64');
      expect(bytes.length).toBe(320 * 4);
      const decoded = Array.from({ length: 320 }, (_, j) => bytes.readFloatLE(j * 4));
      expect(decoded).toEqual(floats.results[i]!.embedding);
    });
  });

  test('usage counts 150 bytes per input plus its UTF-8 bytes, and tokens', async () => {
    const response = await embed({ model: 'zembed-1', input_type: 'query', input: ['héllo', 'world'], encoding_format: 'float' });
    expect(response.usage.total_bytes).toBe(150 + 6 + 150 + 5);
    expect(embedRequestBytes(['héllo', 'world'])).toBe(311);
    expect(response.usage.total_tokens).toBeGreaterThanOrEqual(2);
  });

  test('an unknown model is not found and an unsupported dimension is invalid', async () => {
    await expect(embed({ model: 'zembed-9', input_type: 'query', input: 'x', encoding_format: 'float' })).rejects.toBeInstanceOf(NotFound);
    await expect(
      embed({ model: 'zembed-1', input_type: 'query', input: 'x', dimensions: 100, encoding_format: 'float' }),
    ).rejects.toBeInstanceOf(Invalid);
  });
});
