import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * Protocol stand-ins for the model providers Sift calls (as s3rver is for S3): one HTTP server
 * answering each API's documented request with its documented response shape, from a toy model
 * the tests can compute themselves. Every request is recorded, and `failNext` makes the next
 * calls answer an error, so retries and outages can be observed.
 *
 * - OpenAI   POST /v1/embeddings {model, input[], encoding_format?, dimensions?} -> {object, data[{object, index, embedding}], model, usage}
 * - TEI      POST /embed {inputs[], normalize?, truncate?} -> [[float]]
 *            POST /rerank {query, texts[], raw_scores?, truncate?} -> [{index, score}] best first
 * - Cohere   POST /v2/rerank {model, query, documents[], top_n?} -> {id, results[{index, relevance_score}], meta}
 * - Ollama   POST /api/embed {model, input[], truncate?} -> {model, embeddings[[float]]}
 */

/** The toy embedding: letter counts of a, e, i, o, u (plus one), not normalised. */
export const toyVector = (text: string): number[] => [...'aeiou'].map((letter) => 1 + [...text.toLowerCase()].filter((c) => c === letter).length);
export const unit = (vector: number[]): number[] => {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return vector.map((x) => x / norm);
};
/** The toy relevance: the share of the query's words found in the document. */
export const toyScore = (query: string, document: string): number => {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const text = document.toLowerCase();
  return words.length === 0 ? 0 : words.filter((word) => text.includes(word)).length / words.length;
};

export interface RecordedCall {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface StandIn {
  url: string;
  calls: RecordedCall[];
  /** The next `count` calls answer `status` (503 by default). */
  failNext(count: number, status?: number): void;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

function answer(path: string, body: Record<string, unknown>): unknown {
  const strings = (value: unknown) => value as string[];
  const ranked = (query: string, texts: string[]) =>
    texts.map((text, index) => ({ index, score: toyScore(query, text) })).sort((a, b) => b.score - a.score || a.index - b.index);
  switch (path) {
    case '/v1/embeddings':
      return {
        object: 'list',
        // Out of order on purpose: clients must place each by its index.
        data: strings(body.input).map((text, index) => ({ object: 'embedding', index, embedding: unit(toyVector(text)) })).reverse(),
        model: body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      };
    case '/embed':
      return strings(body.inputs).map((text) => (body.normalize === false ? toyVector(text) : unit(toyVector(text))));
    case '/rerank':
      return ranked(body.query as string, strings(body.texts));
    case '/v2/rerank':
      return {
        id: 'standin',
        results: ranked(body.query as string, strings(body.documents))
          .slice(0, (body.top_n as number | undefined) ?? undefined)
          .map(({ index, score }) => ({ index, relevance_score: score })),
        meta: { billed_units: { search_units: 1 } },
      };
    case '/api/embed':
      return { model: body.model, embeddings: strings(body.input).map((text) => unit(toyVector(text))) };
    default:
      return null;
  }
}

export async function startStandIn(): Promise<StandIn> {
  const calls: RecordedCall[] = [];
  const failures: number[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await readJson(request);
    calls.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
    const failure = failures.shift();
    const result = failure ? null : answer(request.url ?? '', body);
    const status = failure ?? (result === null ? 404 : 200);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(result ?? { error: status === 404 ? 'not found' : 'unavailable' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    failNext: (count, status = 503) => failures.push(...Array.from({ length: count }, () => status)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
