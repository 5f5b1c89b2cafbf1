import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';

/**
 * Dashboard benchmark, against a real server process on a temporary data folder:
 * 1. the gzip size of the JavaScript and CSS the first load of the login and API Keys screens
 *    fetches, as Chromium actually requests it (target: at most 150 KB of JavaScript);
 * 2. p50/p99 latency of get-user and get-info over HTTP, 20 concurrent connections (autocannon).
 */

export interface DashboardBenchResult {
  firstLoad: { screen: string; jsKB: number; cssKB: number; files: number }[];
  latency: { route: string; p50: number; p99: number; requestsPerSecond: number }[];
}

const SECRET = 'bench-secret-0123456789abcdef';
const root = new URL('..', import.meta.url).pathname;

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const server = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), SIFT_DATA_DIR: dataDir, SIFT_SECRET: SECRET, LOG_LEVEL: 'warn', SIFT_INGEST_WORKERS: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/auth/mode`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error('server did not start');
}

async function measureFirstLoad(baseUrl: string, sessionToken: string) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const results: DashboardBenchResult['firstLoad'] = [];
  try {
    for (const [screen, path] of [
      ['login', '/login'],
      ['api-keys', `/api-keys#session=${sessionToken}`],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const assets: { url: string; type: string; gzip: number }[] = [];
      page.on('response', async (response) => {
        const type = response.request().resourceType();
        if (type !== 'script' && type !== 'stylesheet') return;
        const body = await response.body().catch(() => Buffer.alloc(0));
        assets.push({ url: response.url(), type, gzip: gzipSync(body).length });
      });
      await page.goto(baseUrl + path, { waitUntil: 'networkidle' });
      await page.waitForSelector(screen === 'login' ? 'text=Sign in with Google' : 'text=API Keys');
      await page.waitForLoadState('networkidle');
      const sum = (type: string) => assets.filter((a) => a.type === type).reduce((total, a) => total + a.gzip, 0) / 1024;
      results.push({ screen, jsKB: round(sum('script')), cssKB: round(sum('stylesheet')), files: assets.length });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

async function measureLatency(baseUrl: string, sessionToken: string, organizationId: string) {
  const results: DashboardBenchResult['latency'] = [];
  for (const [route, body] of [
    ['/api/users/get-user', {}],
    ['/api/organizations/get-info', { organization_id: organizationId }],
  ] as const) {
    const run = await autocannon({
      url: baseUrl + route,
      method: 'POST',
      connections: 20,
      duration: 5,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` },
      body: JSON.stringify(body),
    });
    if (run.non2xx > 0) throw new Error(`${route}: ${run.non2xx} failed requests`);
    results.push({ route, p50: run.latency.p50, p99: run.latency.p99, requestsPerSecond: Math.round(run.requests.average) });
  }
  return results;
}

export async function runDashboardBench(): Promise<DashboardBenchResult> {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-bench-dashboard-'));
  const port = 8700 + Math.floor(Math.random() * 200);
  const baseUrl = `http://localhost:${port}`;
  const server = await startServer(dataDir, port);
  try {
    const { session_token, organization_id } = JSON.parse(
      execFileSync('node', ['--import', 'tsx', 'apps/server/src/cli.ts', 'bootstrap', '--email', 'bench@example.com', '--name', 'Bench', '--org', 'Bench Org'], {
        cwd: root,
        env: { ...process.env, SIFT_DATA_DIR: dataDir, SIFT_SECRET: SECRET },
        encoding: 'utf8',
      }),
    );
    const firstLoad = await measureFirstLoad(baseUrl, session_token);
    const latency = await measureLatency(baseUrl, session_token, organization_id);
    return { firstLoad, latency };
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printDashboardBench({ firstLoad, latency }: DashboardBenchResult): void {
  console.log('\nDashboard first load (gzip, as fetched by Chromium; target JS <= 150 KB)');
  console.table(firstLoad.map((r) => ({ screen: r.screen, 'JS KB': r.jsKB, 'CSS KB': r.cssKB, files: r.files, 'JS within target': r.jsKB <= 150 ? 'yes' : 'NO' })));
  console.log('Dashboard API over HTTP, 20 connections, 5 s each');
  console.table(latency.map((r) => ({ route: r.route, 'p50 ms': r.p50, 'p99 ms': r.p99, 'req/s': r.requestsPerSecond })));
}

const round = (value: number) => Math.round(value * 10) / 10;

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  printDashboardBench(await runDashboardBench());
}
