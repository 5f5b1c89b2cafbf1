import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * An OpenAI-style embeddings server on loopback whose vector of a text is a pseudo-random one of
 * its hash: thousands of vectors without a model, and their exact nearest computable by a test.
 */
export const DIMENSIONS = 16;

export function textVector(text: string): number[] {
  const seed = createHash('sha256').update(text).digest();
  return Array.from({ length: DIMENSIONS }, (_, i) => seed.readInt16LE(i * 2) / 32768);
}

export const cosine = (a: number[], b: number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

export async function startEmbeddings(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] };
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: textVector(text) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The `count` texts nearest `query` among `texts` by exact cosine, best first. */
export function exactNearest<T extends { text: string }>(query: string, texts: readonly T[], count: number): T[] {
  const vector = textVector(query);
  return texts
    .map((item) => ({ item, similarity: cosine(vector, textVector(item.text)) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, count)
    .map(({ item }) => item);
}
