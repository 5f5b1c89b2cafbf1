import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, localSignInExposure } from '../src/config.ts';
import { freePort } from './cluster.ts';

// Issue #43, "no open door": local sign-in listens on loopback only unless the operator says
// otherwise, and the data folder and the files Sift makes in it are its user's alone.

const serverDir = fileURLToPath(new URL('../', import.meta.url));
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
const scratch = () => {
  const folder = mkdtempSync(join(tmpdir(), 'sift-exposure-'));
  folders.push(folder);
  return folder;
};

/** A server process (`src/main.ts`, SQLite) with these settings, its output collected. */
function launch(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: '', SIFT_SECRET: '', OIDC_CLIENT_ID: '', GOOGLE_CLIENT_ID: '', SIFT_INGEST_WORKERS: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

const answers = (url: string) => fetch(url).then((response) => response.ok, () => false);

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('where local sign-in listens', () => {
  const config = (env: Record<string, string>) => loadConfig({ SIFT_DATA_DIR: scratch(), SIFT_SECRET: 'exposure-secret-0123456789', ...env });

  test('loopback, or any address with an identity provider, needs nothing; another address without one is refused unless allowed', () => {
    for (const host of ['localhost', '127.0.0.1', '127.0.1.1', '::1']) expect(localSignInExposure(config({ HOST: host }))).toBeNull();
    expect(localSignInExposure(config({}))).toBeNull(); // the default, without a provider, is localhost
    expect(localSignInExposure(config({ HOST: '0.0.0.0', OIDC_CLIENT_ID: 'client', OIDC_CLIENT_SECRET: 'secret' }))).toBeNull();
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'sift.internal']) {
      expect(() => localSignInExposure(config({ HOST: host }))).toThrow(ConfigError);
      expect(() => localSignInExposure(config({ HOST: host }))).toThrow(/SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK=true/);
    }
    expect(localSignInExposure(config({ HOST: '0.0.0.0', SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK: 'true' }))).toMatch(/anyone who reaches this port can sign in as any user/);
  });

  test('HOST=0.0.0.0 without an identity provider: the server refuses to start, and no one gets a session', async () => {
    const port = await freePort();
    const server = launch({ HOST: '0.0.0.0', PORT: String(port), SIFT_DATA_DIR: scratch() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Sift will not listen on 0.0.0.0 with local sign-in');
    expect(server.output()).not.toMatch(/\n\s+at /); // a sentence, not a stack trace
    const signIn = await fetch(`http://127.0.0.1:${port}/auth/local/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Anyone', email: 'owner@example.com' }),
      redirect: 'manual',
    }).then(
      (response) => response.status,
      () => 'unreachable',
    );
    expect(signIn).toBe('unreachable');
  }, 120_000);

  test('with SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK=true it starts and warns what it exposes', async () => {
    const port = await freePort();
    const server = launch({ HOST: '0.0.0.0', PORT: String(port), SIFT_DATA_DIR: scratch(), SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK: 'true' });
    try {
      await until('the server', async () => server.child.exitCode !== null || (await answers(`http://127.0.0.1:${port}/health/live`)));
      await until('the warning', () => server.output().includes('WARNING'), 10_000);
      expect(server.output()).toMatch(/local sign-in is open on the network \(0\.0\.0\.0:\d+/);
      expect(server.output()).toContain('anyone who reaches this port can sign in as any user');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});

describe('file modes', () => {
  test('the data folder is 0700 and every file Sift made in it 0600: database, search files, uploads, the secret', async () => {
    const dataDir = join(scratch(), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755); // as an operator's `mkdir` left it
    const port = await freePort();
    const server = launch({ HOST: '127.0.0.1', PORT: String(port), SIFT_DATA_DIR: dataDir, SIFT_INGEST_WORKERS: '1' });
    try {
      await until('the server', async () => server.child.exitCode !== null || (await answers(`http://127.0.0.1:${port}/health/live`)));
      // An owner and an API key, as the README's bootstrap makes them.
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'bootstrap', '--email', 'modes@example.com', '--org', 'Modes'], {
        cwd: serverDir,
        env: { ...process.env, SIFT_DATA_DIR: dataDir, DATABASE_URL: '', SIFT_SECRET: '' },
        encoding: 'utf8',
      });
      expect(cli.status, cli.stderr).toBe(0);
      const { api_key: key } = JSON.parse(cli.stdout) as { api_key: string };
      const post = (path: string, body: unknown) =>
        fetch(`http://127.0.0.1:${port}/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/collections/add-collection', { collection_name: 'modes' })).status).toBe(201);
      // Past the size kept in the database: a file of its own in the data folder (a page of HTML,
      // not its text, so it stays once indexed).
      const html = `<!doctype html><p>${'private words of a large upload '.repeat(8000)}</p>`;
      expect((await post('/documents/add-document', { collection_name: 'modes', path: 'large.html', content: { type: 'auto', base64_data: Buffer.from(html).toString('base64') } })).status).toBe(201);
      await until('indexing', async () => (await (await post('/status/get-status', { collection_name: 'modes' })).json()).num_indexed_documents === 1);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(dataDir, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
    expect(files.map((file) => file.slice(dataDir.length + 1))).toEqual(expect.arrayContaining(['secret', 'sift.db']));
    expect(files.some((file) => file.includes(`${join(dataDir, 'files')}/`))).toBe(true);
    for (const file of files) expect([file, (statSync(file).mode & 0o777).toString(8)]).toEqual([file, '600']);
    for (const folder of entries.filter((entry) => entry.isDirectory())) {
      const path = join(folder.parentPath, folder.name);
      expect([path, (statSync(path).mode & 0o777).toString(8)]).toEqual([path, '700']);
    }
  }, 180_000);
});
