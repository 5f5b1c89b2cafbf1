import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

/** Settings from the environment: defaults, limits, and what an operator sees when one is wrong. */
describe('settings', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-settings-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('SIFT_INGEST_NICE is 10 unless set, and 0 to 19', () => {
    expect(loadConfig({ SIFT_DATA_DIR: dataDir }).ingestNice).toBe(10);
    expect(loadConfig({ SIFT_DATA_DIR: dataDir, SIFT_INGEST_NICE: '19' }).ingestNice).toBe(19);
    expect(loadConfig({ SIFT_DATA_DIR: dataDir, SIFT_INGEST_NICE: '0' }).ingestNice).toBe(0);
    for (const refused of ['20', '-1', 'low']) {
      expect(() => loadConfig({ SIFT_DATA_DIR: dataDir, SIFT_INGEST_NICE: refused })).toThrow(ConfigError);
    }
  });

  test('a server started with settings it cannot use says which and why, and exits 1', () => {
    const started = spawnSync('node', ['--import', 'tsx', 'src/main.ts'], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, SIFT_DATA_DIR: dataDir, PORT: 'eighty', SIFT_INGEST_NICE: '25', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('Sift cannot start with these settings:');
    expect(started.stderr).toMatch(/expected number[^\n]*\n\s*→ at PORT/);
    expect(started.stderr).toMatch(/<=19\n\s*→ at SIFT_INGEST_NICE/);
    // Not a stack trace.
    expect(started.stderr).not.toMatch(/ZodError|at loadConfig/);
  });

  test('a server whose port is taken says so and how to change it, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const started = spawnSync('node', ['--import', 'tsx', 'src/main.ts'], {
        cwd: new URL('..', import.meta.url).pathname,
        env: { ...process.env, SIFT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(started.status).toBe(1);
      expect(started.stderr).toContain(`Sift cannot listen on 127.0.0.1:${port}: the port is in use (another Sift, or another program); set PORT to a free one`);
      expect(started.stderr).not.toMatch(/EADDRINUSE|at Server/); // not a stack trace
    } finally {
      taken.close();
    }
  });
});
