import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Hybrid search with SIFT_EMBEDDING_PROVIDER=openai pointed at a stand-in of `/v1/embeddings`
 * whose vectors the test controls: each dimension is a concept, and a text's vector counts the
 * words of each concept the model knows. A query sharing no word with a document finds it when
 * the model puts both in one concept; the provider down leaves searches lexical and documents
 * waiting; another model re-embeds the collection.
 */
const CONCEPTS: Record<string, string[][]> = {
  m1: [['car', 'cars', 'automobile', 'vehicle'], ['bread', 'loaf', 'bakery']],
  m2: [['car', 'cars', 'automobile', 'vehicle'], ['bread', 'loaf', 'bakery'], ['sea', 'ocean', 'marine']],
};

function conceptVector(model: string, text: string): number[] {
  const words = text.toLowerCase().split(/\W+/);
  // A last dimension every text has a little of: no text is the zero vector.
  return [...CONCEPTS[model]!.map((concept) => words.filter((word) => concept.includes(word)).length), 0.01];
}

interface EmbeddingStandIn {
  url: string;
  down: boolean;
  /** Inputs embedded, per model. */
  inputs: Record<string, string[]>;
  close(): Promise<void>;
}

async function startEmbeddings(): Promise<EmbeddingStandIn> {
  const state = { down: false, inputs: {} as Record<string, string[]> };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] };
    if (state.down) {
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
      return;
    }
    (state.inputs[body.model] ??= []).push(...body.input);
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(body.model, text) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

const texts: Record<string, string> = {
  'cars.txt': 'Cars need fuel and tyres. A vehicle is serviced once a year.',
  'bakery.txt': 'The bakery sells a fresh loaf every morning.',
  'sea.txt': 'The sea is deep and cold in winter.',
  'tyres.txt': 'Tyres wear out; fuel prices rise.',
};

const paths = (response: { body: { results: { path: string }[] } }) => response.body.results.map((result) => result.path);

describe('hybrid search over an embedding provider', () => {
  let embeddings: EmbeddingStandIn;
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-hybrid-'));
  const env = (model: string) => ({ SIFT_DATA_DIR: dataDir, SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: embeddings.url, SIFT_EMBEDDING_MODEL: model });
  const search = (path: string, body: Record<string, unknown>) => h.call(`/v1/queries/${path}`, { collection_name: 'c', k: 4, ...body }, f.keyA);
  const add = (path: string, text: string) => h.call('/v1/documents/add-document', { collection_name: 'c', path, content: { type: 'text', text } }, f.keyA);
  const status = async (path: string) => (await h.call('/v1/documents/get-document-info', { collection_name: 'c', path }, f.keyA)).body.document.index_status;

  beforeAll(async () => {
    embeddings = await startEmbeddings();
    h = await startHarness(env('m1'));
    f = await providerFixtures(h);
    await h.call('/v1/collections/add-collection', { collection_name: 'c' }, f.keyA);
    for (const [path, text] of Object.entries(texts)) await add(path, text);
    await f.workers.idle();
  });
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
    await embeddings.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a query sharing no word with a document finds it through vectors, at every granularity', async () => {
    for (const [path, extra] of [
      ['top-documents', {}],
      ['top-pages', {}],
      ['top-snippets', { precise_responses: false }],
      ['top-snippets', { precise_responses: true }],
    ] as const) {
      const response = await search(path, { query: 'automobile', ...extra });
      expect(response.status).toBe(200);
      expect(paths(response)[0]).toBe('cars.txt');
      for (const result of response.body.results as { score: number }[]) {
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
      }
    }
  });

  test('lexical and vector matches are blended, scores falling with rank', async () => {
    // The tyres match "fuel" best; the cars match it too, and are the nearest "automobile": they pass the sea and the bakery.
    const response = await search('top-documents', { query: 'fuel automobile' });
    expect(paths(response).slice(0, 2)).toEqual(['tyres.txt', 'cars.txt']);
    const scores = response.body.results.map((result: { score: number }) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  test('the metadata filter applies to the vector matches too', async () => {
    await h.call('/v1/documents/update-document', { collection_name: 'c', path: 'cars.txt', metadata: { kind: 'a' } }, f.keyA);
    await f.workers.idle();
    const response = await search('top-documents', { query: 'automobile', filter: { kind: { $eq: 'b' } } });
    expect(response.status).toBe(200);
    expect(paths(response)).not.toContain('cars.txt');
  });

  test('provider down: searches answer lexically, documents wait, then index when it is back', async () => {
    embeddings.down = true;
    try {
      const lexical = await search('top-documents', { query: 'bakery' });
      expect(lexical.status).toBe(200);
      expect(paths(lexical)).toEqual(['bakery.txt']);
      await add('van.txt', 'A van is a vehicle for goods.');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await status('van.txt')).not.toBe('indexed');
      expect(await status('van.txt')).not.toMatch(/failed/);
    } finally {
      embeddings.down = false;
    }
    await f.workers.idle();
    expect(await status('van.txt')).toBe('indexed');
    expect(paths(await search('top-documents', { query: 'automobile' }))).toContain('van.txt');
  }, 60_000);

  test('deleting a document removes its vectors', async () => {
    expect((await h.call('/v1/documents/delete-document', { collection_name: 'c', path: 'van.txt' }, f.keyA)).status).toBe(200);
    await f.workers.idle();
    expect(paths(await search('top-documents', { query: 'automobile' }))).not.toContain('van.txt');
  });

  test('another embedding model re-embeds the collection in the background; searches answer meanwhile', async () => {
    // Under m1, "marine" and "sea" share no concept: the sea ties with the tyres (neither holds a concept m1 knows).
    const scores = async () => (await search('top-documents', { query: 'marine' })).body.results as { path: string; score: number }[];
    const before = await scores();
    expect(before[0]!.score).toBe(before[1]!.score);
    await f.workers.stop();
    await h.close();
    // The same database: on PostgreSQL, the first harness's schema.
    h = await startHarness({ ...env('m2'), ...(h.config.databaseUrl ? { DATABASE_URL: h.config.databaseUrl } : {}) });
    // Before any vector of m2 is in, the search answers, lexically: nothing matches "marine".
    let found = await scores();
    expect(found).toEqual([]);
    f = { ...f, workers: await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 }) };
    // Once re-embedded under m2, the sea is nearest "marine" alone.
    for (let attempt = 0; attempt < 100 && !(found.length > 1 && found[0]!.score > found[1]!.score); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      found = await scores();
    }
    expect(found[0]!.path).toBe('sea.txt');
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
    expect(embeddings.inputs.m2!.some((input) => input.includes('The sea is deep'))).toBe(true);
  }, 30_000);
});

describe.skipIf(!process.env.TEST_POSTGRES_URL)('PostgreSQL with pgvector and SQLite', () => {
  let embeddings: EmbeddingStandIn;
  const servers: { h: Harness; f: Awaited<ReturnType<typeof providerFixtures>> }[] = [];

  beforeAll(async () => {
    embeddings = await startEmbeddings();
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const h = await startHarness({ SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: embeddings.url, SIFT_EMBEDDING_MODEL: 'm2' }, { dialect });
      const f = await providerFixtures(h);
      await h.call('/v1/collections/add-collection', { collection_name: 'c' }, f.keyA);
      for (const [path, text] of Object.entries(texts)) {
        await h.call('/v1/documents/add-document', { collection_name: 'c', path, content: { type: 'text', text }, metadata: { long: String(text.length > 40) } }, f.keyA);
      }
      await f.workers.idle();
      servers.push({ h, f });
    }
  });
  afterAll(async () => {
    for (const { h, f } of servers) {
      await f.workers.stop();
      await h.close();
    }
    await embeddings.close();
  });

  test('give the same hybrid order and scores for the same vectors', async () => {
    const requests = [
      ['top-documents', { query: 'automobile' }],
      ['top-documents', { query: 'fuel marine' }],
      ['top-documents', { query: 'tyres loaf', filter: { long: { $eq: 'true' } } }],
      ['top-pages', { query: 'sea bakery' }],
      ['top-snippets', { query: 'vehicle fuel', precise_responses: true }],
      ['top-snippets', { query: 'ocean', precise_responses: false }],
    ] as const;
    for (const [path, body] of requests) {
      const [sqlite, postgres] = await Promise.all(servers.map(({ h, f }) => h.call(`/v1/queries/${path}`, { collection_name: 'c', k: 4, ...body }, f.keyA)));
      const ranking = (response: typeof sqlite) => response!.body.results.map((result: { path: string; score: number }) => [result.path, result.score.toFixed(9)]);
      expect(sqlite!.status).toBe(200);
      expect(ranking(sqlite!).length).toBeGreaterThan(0);
      expect(ranking(postgres!)).toEqual(ranking(sqlite!));
    }
  });
});
