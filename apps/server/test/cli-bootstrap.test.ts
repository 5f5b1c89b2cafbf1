import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startHarness } from './harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'sift-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const bootstrap = () =>
  JSON.parse(
    execFileSync('node', ['--import', 'tsx', 'src/cli.ts', 'bootstrap', '--email', 'ci@example.com', '--name', 'CI', '--org', 'CI Org'], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, SIFT_DATA_DIR: dataDir },
      encoding: 'utf8',
    }),
  );

test('bootstrap prints a session token, an organization and an API key, and reuses them when run again', async () => {
  const first = bootstrap();
  expect(Object.keys(first).sort()).toEqual(['api_key', 'organization_id', 'session_token']);
  const second = bootstrap();
  expect(second.organization_id).toBe(first.organization_id);
  expect(second.api_key).toBe(first.api_key);

  // The server on the same data folder (and its generated secret) accepts both.
  const h = await startHarness({ SIFT_DATA_DIR: dataDir, SIFT_SECRET: '', DATABASE_URL: `sqlite:${join(dataDir, 'sift.db')}` });
  try {
    const me = await h.call('/api/users/get-user', undefined, first.session_token);
    expect(me.body.organizations).toEqual([expect.objectContaining({ id: first.organization_id, name: 'CI Org', permission: 'OWNER' })]);
    const info = await h.call('/api/organizations/get-info', { organization_id: first.organization_id }, first.session_token);
    expect(info.body.api_keys[0]).toMatchObject({ api_key: first.api_key, permission: 'all' });
  } finally {
    await h.close();
  }
});
