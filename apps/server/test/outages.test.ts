import { connect, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/http/app.ts';
import { createAppContext } from '../src/http/context.ts';
import { type Harness, startHarness } from './harness.ts';
import { freshPostgresSchema } from './postgres-schema.ts';
import { providerFixtures } from './provider-fixtures.ts';
import { fileHarness } from './support/file-harness.ts';

// Issue #43, "dependencies down": while the database or the object store is unreachable, requests
// that need it answer 503 with retry-after (never 500), readiness names what is down, the log has
// one line when the outage starts and one when it ends; when it is back, everything answers again.

type App = Awaited<ReturnType<typeof buildApp>>;

/** An app on the harness's database and settings whose warnings the test reads (the harness's own logs nothing). */
async function loggedApp(h: Harness) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildApp(createAppContext({ ...h.config, logLevel: 'warn' }, h.database, { ownIngestion: () => true, draining: () => false }), { logStream: stream });
  return { app, log: () => lines.map((line) => JSON.parse(line) as { msg: string; level: number; err?: unknown }) };
}

const post = async (app: App, url: string, body: unknown, key: string) => {
  const response = await app.inject({ method: 'POST', url, payload: body as object, headers: { authorization: `Bearer ${key}` } });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
};

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The refusal every call that needs the missing dependency gets. */
const expectOutage = (response: { status: number; body: { detail?: unknown }; headers: Record<string, unknown> }, dependency: string) => {
  expect(response.status).toBe(503);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.body.detail).toMatch(new RegExp(`^The ${dependency} is unreachable`));
};

/**
 * A TCP relay to PostgreSQL on a port of its own that the test stops (the listener closed, every
 * connection cut: PostgreSQL stopped, as Sift sees it) and starts again on the same port.
 */
async function relayTo(target: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      if (server) return resolve();
      server = createServer((client) => {
        const upstream = connect(target, '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await start();
  return {
    port,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.close(() => resolve());
        server = null;
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe.runIf(process.env.SIFT_TEST_DIALECT === 'postgres' && process.env.TEST_POSTGRES_URL)('PostgreSQL unreachable', () => {
  let relay: Awaited<ReturnType<typeof relayTo>>;
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  beforeAll(async () => {
    const schema = new URL((await freshPostgresSchema(process.env.TEST_POSTGRES_URL!)).url);
    relay = await relayTo(Number(schema.port || 5432));
    schema.port = String(relay.port);
    h = await startHarness({ DATABASE_URL: schema.toString() });
    f = await providerFixtures(h);
  });
  afterAll(async () => {
    await relay?.start();
    await f?.workers.stop();
    await h?.close();
    await relay?.stop();
  });

  test('searches, uploads and dashboard calls answer 503 with retry-after; readiness names the database; one log line each way; all answer again once it is back', async () => {
    const { app, log } = await loggedApp(h);
    const owner = await h.signIn('outage@example.com');
    await post(app, '/v1/collections/add-collection', { collection_name: 'outage' }, f.keyA);
    await post(app, '/v1/documents/add-document', { collection_name: 'outage', path: 'a.txt', content: { type: 'text', text: 'the harbour lights at night' } }, f.keyA);
    await f.workers.idle();
    await f.workers.stop(); // ingestion's own waiting belongs to the worker loop
    const search = () => post(app, '/v1/queries/top-documents', { collection_name: 'outage', query: 'harbour lights', k: 1 }, f.keyA);
    const snippets = () => post(app, '/v1/queries/top-snippets', { collection_name: 'outage', query: 'harbour lights', k: 1 }, f.keyA);
    expect((await search()).body.results[0].path).toBe('a.txt');
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    await relay.stop();
    for (let round = 0; round < 3; round++) {
      expectOutage(await search(), 'database');
      expectOutage(await snippets(), 'database');
      expectOutage(await post(app, '/v1/documents/add-document', { collection_name: 'outage', path: `b${round}.txt`, content: { type: 'text', text: 'written while away' } }, f.keyA), 'database');
      expectOutage(await post(app, '/v1/collections/get-collection-list', {}, f.keyA), 'database');
      expectOutage(await post(app, '/api/users/get-user', {}, owner.token), 'database');
    }
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not ready', checks: { database: 'unreachable' } });
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);

    await relay.start();
    await until('searches answer again', async () => (await search()).status === 200);
    expect((await search()).body.results[0].path).toBe('a.txt');
    expect((await snippets()).status).toBe(200);
    expect((await post(app, '/v1/documents/add-document', { collection_name: 'outage', path: 'after.txt', content: { type: 'text', text: 'written once back' } }, f.keyA)).status).toBe(201);
    expect((await post(app, '/api/users/get-user', {}, owner.token)).status).toBe(200);
    await until('the end of the outage is logged', () => log().some((line) => line.msg.startsWith('database reachable again')));
    await until('readiness', async () => (await app.inject({ method: 'GET', url: '/health/ready' })).statusCode === 200);

    const lines = log();
    expect(lines.filter((line) => line.msg.startsWith('database unreachable'))).toHaveLength(1);
    expect(lines.filter((line) => line.msg.startsWith('database reachable again'))).toHaveLength(1);
    expect(lines.filter((line) => line.err !== undefined || line.level >= 50)).toEqual([]); // no stack trace, no error per request
    await app.close();
  }, 90_000);
});

describe('object store unreachable', () => {
  const t = fileHarness({ objectStore: true });

  test('uploads and file links answer 503 with retry-after; readiness names the object store; searches go on; all answer again once it is back', async () => {
    const { app, log } = await loggedApp(t.h);
    await post(app, '/v1/collections/add-collection', { collection_name: 'bucket' }, t.f.keyA);
    // A page of HTML: a file that is not its text, so its link needs the store (a plain text or text-pages file is made from what is indexed).
    const html = '<!doctype html><p>a lighthouse keeper</p>';
    const content = { type: 'auto', base64_data: Buffer.from(html).toString('base64') };
    expect((await post(app, '/v1/documents/add-document', { collection_name: 'bucket', path: 'kept.txt', content }, t.f.keyA)).status).toBe(201);
    await t.f.workers.idle();
    await t.f.workers.stop(); // ingestion's own waiting belongs to the worker loop
    const info = await post(app, '/v1/documents/get-document-info', { collection_name: 'bucket', path: 'kept.txt' }, t.f.keyA);
    const link = new URL(info.body.document.file_url);
    const upload = (path: string) => post(app, '/v1/documents/add-document', { collection_name: 'bucket', path, content: { type: 'text', text: `the text of ${path}` } }, t.f.keyA);

    await t.s3.stop();
    expectOutage(await upload('away-1.txt'), 'object store');
    expectOutage(await upload('away-2.txt'), 'object store');
    const file = await app.inject({ method: 'GET', url: link.pathname + link.search });
    expectOutage({ status: file.statusCode, body: file.json(), headers: file.headers }, 'object store');
    // What does not need the store goes on.
    expect((await post(app, '/v1/queries/top-documents', { collection_name: 'bucket', query: 'lighthouse', k: 1 }, t.f.keyA)).status).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toEqual({ database: 'ok', migrations: 'ok', queue: 'ok', object_store: 'unreachable' });
    expect((await post(app, '/v1/documents/get-document-info', { collection_name: 'bucket', path: 'away-1.txt' }, t.f.keyA)).status).toBe(404); // refused, not half-added

    await t.s3.restart();
    await until('uploads answer again', async () => (await upload('back.txt')).status === 201);
    expect((await app.inject({ method: 'GET', url: link.pathname + link.search })).body).toBe(html);
    await until('the end of the outage is logged', () => log().some((line) => line.msg.startsWith('object store reachable again')));
    const back = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(back.json().checks.object_store).toBe('ok');

    const lines = log();
    expect(lines.filter((line) => line.msg.startsWith('object store unreachable'))).toHaveLength(1);
    expect(lines.filter((line) => line.err !== undefined || line.level >= 50)).toEqual([]);
    await app.close();
  }, 90_000);
});
