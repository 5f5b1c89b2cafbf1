import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from './cluster.ts';

/**
 * `npm start` (scripts/start.mjs) runs the server as its child, `npm run worker` (scripts/worker.mjs)
 * a worker, `npm run dev` (scripts/dev.mjs) the server under `tsx watch` and Vite. Stopping them
 * the way systemd or `docker stop` do (SIGTERM to the process they started: the script, or npm)
 * must stop what they started too, not leave it running without a parent; Ctrl-C, which reaches
 * the server twice (from the terminal and through the script), must not cut its drain short. The
 * scripts run from a folder that links to this checkout and holds a fresh dashboard build, so they
 * serve without building the dashboard here (`npm run dev` runs in the checkout: Vite serves it).
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
/** Where the scripts run and keep their data: made by layOut, so a run that skips every test (PostgreSQL) makes neither. */
let folder = '';
let dataDir = '';
/** Process groups started here: whatever a failed test left running is ended with them. */
const groups: number[] = [];
afterAll(() => {
  for (const group of groups) if (groupAlive(group)) process.kill(-group, 'SIGKILL');
  rmSync(folder, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

beforeAll(layOut);
function layOut(): void {
  folder = mkdtempSync(join(tmpdir(), 'sift-start-'));
  dataDir = mkdtempSync(join(tmpdir(), 'sift-start-data-'));
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds or `ms` pass; says whether it held. */
async function eventually(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

/** Whether any process of the group `leader` started is still running. */
function groupAlive(leader: number): boolean {
  try {
    process.kill(-leader, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a command of the folder in a process group of its own, as a terminal would, on SQLite (the
 * default store), and waits until `ready` says it is up.
 */
async function launch(command: string[], env: Record<string, string>, ready: (output: string) => Promise<boolean>, cwd = folder) {
  // Not this test run's npm variables: npm sets its own for `npm start`; the script run directly has none.
  const { DATABASE_URL: _postgres, npm_lifecycle_event: _npm, ...inherited } = process.env;
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { ...inherited, SIFT_DATA_DIR: dataDir, SIFT_SECRET: 'test-secret-0123456789abcdef', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(child.pid!);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (!(await eventually(async () => child.exitCode !== null || (await ready(output)), 60_000)) || child.exitCode !== null) {
    throw new Error(`${command.join(' ')} did not start: ${output}`);
  }
  return { child, exited, output: () => output };
}

/** Whether something answers `url` with a 2xx. */
const answers = (url: string): Promise<boolean> => fetch(url).then((response) => response.ok, () => false);

/** The start script (or `npm start`, the README's command), once its server answers. */
async function startServer(command: string[] = [process.execPath, 'scripts/start.mjs'], env: Record<string, string> = {}) {
  const port = await freePort();
  const live = () => answers(`http://127.0.0.1:${port}/health/live`);
  const { child, exited } = await launch(command, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, live);
  return { start: child, exited, live };
}

interface RunningProcess {
  pid: number;
  parent: number;
  group: number;
  commandLine: string[];
}

/** Every running process, from /proc. */
function runningProcesses(): RunningProcess[] {
  const found: RunningProcess[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command name: state, parent, process group.
      const [, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.push({ pid: Number(pid), parent: Number(parent), group: Number(group), commandLine: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** The command lines of the processes `parent` started. */
const childCommandLines = (parent: number): string[][] => runningProcesses().filter((process) => process.parent === parent).map((process) => process.commandLine);

/** The processes `ancestor` started, and theirs, and so on. */
function descendants(ancestor: number): RunningProcess[] {
  const all = runningProcesses();
  const found: RunningProcess[] = [];
  for (let parents = new Set([ancestor]); parents.size > 0; ) {
    const children = all.filter((process) => parents.has(process.parent));
    found.push(...children);
    parents = new Set(children.map((process) => process.pid));
  }
  return found;
}

/**
 * `npm run dev` once the server and Vite answer: the groups dev.mjs starts them in are recorded
 * for the cleanup as well, so a failed test leaves no Vite holding port 5173 (which would make the
 * next run skip these tests).
 */
async function startDev() {
  const port = await freePort();
  const server = `http://127.0.0.1:${port}/health/live`;
  let vite = '';
  // In the checkout itself: Vite serves apps/web, and neither it nor the server writes there.
  const { child: npm, output } = await launch(
    ['npm', 'run', 'dev'],
    { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    async (text) => {
      vite = /Local:\s+(http:\/\/\S+)/.exec(text.replace(/\x1b\[[0-9;]*m/g, ''))?.[1] ?? '';
      return vite !== '' && (await answers(server));
    },
    repo,
  );
  const started = descendants(npm.pid!);
  groups.push(...new Set(started.map((process) => process.group)));
  const viteProcess = started.find((process) => process.commandLine.some((argument) => /node_modules\/\.bin\/vite$|vite\/bin\/vite\.js$/.test(argument)));
  return { npm, output, viteProcess, serverLive: () => answers(server), viteLive: () => answers(vite) };
}

/** Vite takes port 5173 or fails (strictPort): a developer's own `npm run dev` may hold it. */
const viteBusy = () => answers('http://localhost:5173/');

const skipOnPostgres = process.env.SIFT_TEST_DIALECT === 'postgres'; // the scripts and SQLite: one run is enough

test.skipIf(skipOnPostgres)('SIGTERM to the start script (kill, systemd, docker stop) stops the server it started, which drains and exits 0', async () => {
  const { start, exited, live } = await startServer();
  // The server runs with Sift's V8 flags (run-entry.mjs).
  expect(childCommandLines(start.pid!)).toEqual([expect.arrayContaining(['--max-semi-space-size=64', 'apps/server/src/main.ts'])]);
  start.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(await live()).toBe(false); // nothing answers any more: the server went with the script
}, 90_000);

test.skipIf(skipOnPostgres)('Ctrl-C (SIGINT to the whole process group, so the server gets it twice) still drains and exits 0', async () => {
  const { start, exited, live } = await startServer();
  process.kill(-start.pid!, 'SIGINT');
  expect(await exited).toBe(0);
  expect(await live()).toBe(false);
}, 90_000);

test.skipIf(skipOnPostgres)('SIGTERM to `npm start` stops the server too, though npm runs the script through a shell that passes no signal on', async () => {
  const { start, exited, live } = await startServer(['npm', 'start']);
  start.kill('SIGTERM');
  await exited;
  expect(await eventually(async () => !(await live()), 20_000)).toBe(true);
}, 90_000);

test.skipIf(skipOnPostgres)('SIGTERM to `npm run worker` stops the worker too: nothing npm started is left running', async () => {
  const { child: npm } = await launch(['npm', 'run', 'worker'], { LOG_LEVEL: 'info' }, async (output) => output.includes('worker loop(s)'));
  npm.kill('SIGTERM');
  // Every process npm started (its shell, the script, the worker) has ended: the group is empty.
  expect(await eventually(() => !groupAlive(npm.pid!), 20_000)).toBe(true);
}, 90_000);

test.skipIf(skipOnPostgres)("an operator's NODE_OPTIONS that sets the young generation's size wins over the start script's", async () => {
  const { start, exited } = await startServer(undefined, { NODE_OPTIONS: '--max-semi-space-size=32' });
  const [server] = childCommandLines(start.pid!);
  expect(server).toContain('apps/server/src/main.ts');
  expect(server!.some((argument) => argument.startsWith('--max-semi-space-size'))).toBe(false);
  start.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 90_000);

test.skipIf(skipOnPostgres)('run directly and left by the shell that started it (as `nohup ... &` is), the server keeps serving', async () => {
  const { start: shell, live } = await startServer(['sh', '-c', 'node scripts/start.mjs & wait']);
  process.kill(shell.pid!, 'SIGKILL'); // the shell goes; the script is adopted by another process
  await sleep(1500); // three of the checks an npm run makes for its parent
  expect(await live()).toBe(true);
  process.kill(-shell.pid!, 'SIGTERM'); // the rest of the group: the script, which stops the server
  expect(await eventually(() => !groupAlive(shell.pid!), 20_000)).toBe(true);
}, 90_000);

test.skipIf(skipOnPostgres)('SIGTERM to `npm run dev` stops the server and Vite it started, the server once (left to drain): nothing is left answering', async (context) => {
  if (await viteBusy()) context.skip('port 5173 is taken (is `npm run dev` running?)');
  const { npm, output, serverLive, viteLive } = await startDev();
  expect(await viteLive()).toBe(true);
  npm.kill('SIGTERM');
  expect(await eventually(async () => !(await serverLive()) && !(await viteLive()), 20_000)).toBe(true);
  // Signalled once: a second signal makes tsx watch SIGKILL the server instead of letting it drain.
  expect(output()).not.toContain('Force killing');
}, 90_000);

test.skipIf(skipOnPostgres)('under `npm run dev`, Vite ending stops the server too, and the script ends', async (context) => {
  if (await viteBusy()) context.skip('port 5173 is taken (is `npm run dev` running?)');
  const { npm, output, viteProcess, serverLive } = await startDev();
  expect(viteProcess).toBeDefined();
  process.kill(viteProcess!.pid, 'SIGTERM');
  expect(await eventually(async () => !(await serverLive()) && !groupAlive(npm.pid!), 20_000)).toBe(true);
  expect(output()).not.toContain('Force killing');
}, 90_000);
