import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from './cluster.ts';

/**
 * `npm start` (scripts/start.mjs) runs the server as its child, `npm run worker` (scripts/worker.mjs)
 * a worker. Stopping them the way systemd or `docker stop` do (SIGTERM to the process they started:
 * the script, or npm) must stop the server or worker too, not leave it running without a parent; Ctrl-C, which reaches the server twice (from the terminal and through
 * the script), must not cut its drain short. The script runs from a folder that links to this
 * checkout and holds a fresh dashboard build, so it serves without building the dashboard here.
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'sift-start-'));
const dataDir = mkdtempSync(join(tmpdir(), 'sift-start-data-'));
/** Process groups started here: whatever a failed test left running is ended with them. */
const groups: number[] = [];
afterAll(() => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(folder, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

beforeAll(layOut);
function layOut(): void {
  for (const path of ['node_modules', 'apps/server', 'apps/web/src', 'apps/web/index.html', 'packages/contracts/src']) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    symlinkSync(join(repo, path), join(folder, path));
  }
  mkdirSync(join(folder, 'scripts'));
  for (const script of ['start.mjs', 'worker.mjs', 'run-entry.mjs']) cpSync(join(repo, 'scripts', script), join(folder, 'scripts', script));
  const { start, worker } = readPackage().scripts;
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'sift-scripts', private: true, scripts: { start, worker } }));
  mkdirSync(join(folder, 'apps/web/dist'), { recursive: true });
  writeFileSync(join(folder, 'apps/web/dist/index.html'), '<!doctype html>'); // newer than every source
}

const readPackage = (): { scripts: { start: string; worker: string } } => JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

/**
 * Starts the script (or `npm start`, the README's command) in a process group of its own, as a
 * terminal would, and waits for the server.
 */
async function startScript(command: string[] = [process.execPath, 'scripts/start.mjs']) {
  const port = await freePort();
  const { DATABASE_URL: _postgres, ...env } = process.env; // the default store, SQLite
  const start = spawn(command[0]!, command.slice(1), {
    cwd: folder,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', SIFT_DATA_DIR: dataDir, SIFT_SECRET: 'test-secret-0123456789abcdef', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(start.pid!);
  let output = '';
  start.stdout.on('data', (chunk) => (output += chunk));
  start.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
  const live = () => fetch(`http://127.0.0.1:${port}/health/live`).then((response) => response.ok, () => false);
  const deadline = Date.now() + 60_000;
  while (!(await live())) {
    if (start.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { start, exited, live };
}

const skipOnPostgres = process.env.SIFT_TEST_DIALECT === 'postgres'; // the script and SQLite: one run is enough

test.skipIf(skipOnPostgres)('SIGTERM to the start script (kill, systemd, docker stop) stops the server it started, which drains and exits 0', async () => {
  const { start, exited, live } = await startScript();
  start.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(await live()).toBe(false); // nothing answers any more: the server went with the script
}, 90_000);

test.skipIf(skipOnPostgres)('Ctrl-C (SIGINT to the whole process group, so the server gets it twice) still drains and exits 0', async () => {
  const { start, exited, live } = await startScript();
  process.kill(-start.pid!, 'SIGINT');
  expect(await exited).toBe(0);
  expect(await live()).toBe(false);
}, 90_000);

test.skipIf(skipOnPostgres)('SIGTERM to `npm start` stops the server too, though npm runs the script through a shell that passes no signal on', async () => {
  const { start, exited, live } = await startScript(['npm', 'start']);
  start.kill('SIGTERM');
  await exited;
  const deadline = Date.now() + 20_000;
  while ((await live()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await live()).toBe(false);
}, 90_000);

test.skipIf(skipOnPostgres)('SIGTERM to `npm run worker` stops the worker too: nothing npm started is left running', async () => {
  const { DATABASE_URL: _postgres, ...env } = process.env;
  const worker = spawn('npm', ['run', 'worker'], {
    cwd: folder,
    env: { ...env, SIFT_DATA_DIR: dataDir, SIFT_SECRET: 'test-secret-0123456789abcdef', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(worker.pid!);
  let output = '';
  worker.stdout.on('data', (chunk) => (output += chunk));
  worker.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (!output.includes('worker loop(s)')) {
    if (worker.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  worker.kill('SIGTERM');
  // Every process npm started (its shell, the script, the worker) has ended: the group is empty.
  const groupAlive = () => {
    try {
      process.kill(-worker.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (groupAlive() && Date.now() < deadline + 20_000) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(groupAlive()).toBe(false);
}, 120_000);
