import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../../../scripts/run-entry.mjs';

/**
 * Real Sift processes for the scale-out suite and benchmark: servers (`src/main.ts`) and workers
 * (`src/worker.ts`), each with a data folder of its own, as on separate machines (their object
 * store: support/object-store.ts).
 */
const serverDir = fileURLToPath(new URL('../', import.meta.url));

export interface SiftProcess {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `keepDataDir`: a data folder that outlives the process (a restart on the same data); by default each process gets its own, removed when it exits. */
function launch(entry: string, env: Record<string, string>, port?: number, keepDataDir?: string): SiftProcess {
  const dataDir = keepDataDir ?? mkdtempSync(join(tmpdir(), 'sift-machine-'));
  // As `npm start` and `npm run worker` run them: the server with its V8 flags.
  const flags = entry === 'src/main.ts' ? serverNodeFlags({ ...process.env, ...env }) : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', entry], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', SIFT_DATA_DIR: dataDir, ...env, ...(port ? { PORT: String(port), HOST: '127.0.0.1' } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (!keepDataDir) void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  return {
    url: port ? `http://127.0.0.1:${port}` : '',
    child,
    dataDir,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    output: () => output,
  };
}

async function waitFor(what: string, process_: SiftProcess, ready: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process_.child.exitCode !== null) throw new Error(`${what} exited: ${process_.output()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await process_.stop('SIGKILL');
  throw new Error(`${what} did not start: ${process_.output()}`);
}

/** A server process; resolves once it answers /health/live. */
export async function startServer(env: Record<string, string>, dataDir?: string): Promise<SiftProcess> {
  const server = launch('src/main.ts', { SIFT_INGEST_WORKERS: '0', ...env }, await freePort(), dataDir);
  await waitFor('server', server, async () => (await fetch(`${server.url}/health/live`)).ok);
  return server;
}

/** An ingestion worker process; resolves once its loops run. */
export async function startWorker(env: Record<string, string>): Promise<SiftProcess> {
  const worker = launch('src/worker.ts', { SIFT_INGEST_WORKERS: '2', LOG_LEVEL: 'info', ...env });
  await waitFor('worker', worker, async () => worker.output().includes('worker loop(s)'));
  return worker;
}
