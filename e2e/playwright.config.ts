import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests drive the built dashboard against the real server on a temporary database, in
 * Debian's Chromium (never a downloaded browser).
 */
const port = Number(process.env.E2E_PORT ?? 8123);
if (!process.env.SIFT_E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-e2e-'));
  process.env.SIFT_E2E_DATA_DIR = dataDir;
  // Made by the runner (its workers inherit the variable): removed when the runner exits, after
  // the server, so runs do not leave 40 MB each in the temporary folder.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
process.env.SIFT_E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  // No retries: the specs of a file share one database and build on each other, and a flaky
  // test is a bug to fix, not to hide.
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.SIFT_E2E_BASE_URL,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    permissions: ['clipboard-read', 'clipboard-write'],
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: '..',
    url: `http://localhost:${port}/auth/mode`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      SIFT_DATA_DIR: process.env.SIFT_E2E_DATA_DIR,
      SIFT_SECRET: 'e2e-secret-0123456789abcdef',
      LOG_LEVEL: 'warn',
    },
  },
});
