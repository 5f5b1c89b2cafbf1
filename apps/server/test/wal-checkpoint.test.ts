import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { searchDirectory } from '../src/db/search/sqlite-file.ts';
import { keepWriteAheadLogsSmall } from '../src/db/wal-checkpoint.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * SQLite's write-ahead logs are checkpointed and truncated while the server runs, the main
 * file's and every collection's search file's, not only at a clean shutdown (issue #13 pt 5).
 * PostgreSQL manages its own log: this runs in the SQLite pass only.
 */
describe.runIf(process.env.SIFT_TEST_DIALECT !== 'postgres')('write-ahead logs', () => {
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  beforeAll(async () => {
    h = await startHarness({}, { dialect: 'sqlite' });
    f = await providerFixtures(h);
  });
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
  });

  const size = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

  test('every write-ahead log past the limit is truncated while the server runs', async () => {
    for (const collection of ['tides', 'birds']) {
      await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
      for (let i = 0; i < 5; i++) {
        const text = `${collection} note ${i}: the harbour at dawn, the gulls over the quay.`;
        expect((await h.call('/v1/documents/add-document', { collection_name: collection, path: `${i}.txt`, content: { type: 'text', text } }, f.keyA)).status).toBe(201);
      }
    }
    await f.workers.idle();
    const directory = searchDirectory(h.database.sqlitePath!);
    const logs = () => [`${h.database.sqlitePath!}-wal`, ...readdirSync(directory).filter((name) => name.endsWith('.db-wal')).map((name) => join(directory, name))];
    expect(logs()).toHaveLength(3);
    expect(logs().every((log) => size(log) > 0)).toBe(true);

    const checkpoints = keepWriteAheadLogsSmall(h.database, 1);
    try {
      await expect.poll(() => logs().map(size), { timeout: 10_000, interval: 200 }).toEqual([0, 0, 0]);
    } finally {
      checkpoints.stop();
    }
    const search = await h.call('/v1/queries/top-documents', { collection_name: 'birds', query: 'gulls quay', k: 10 }, f.keyA);
    expect(search.body.results).toHaveLength(5);
  });
});
