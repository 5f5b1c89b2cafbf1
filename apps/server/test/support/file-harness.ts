import { afterAll, beforeAll } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';
import { providerFixtures } from '../provider-fixtures.ts';
import { type ObjectStore, startObjectStore } from './object-store.ts';

/** What a test file's tests share: filled before the first runs. */
export interface FileHarness {
  h: Harness;
  f: Awaited<ReturnType<typeof providerFixtures>>;
  /** Its object store, with `objectStore`. */
  s3: ObjectStore;
}

/**
 * One harness and its provider fixtures for all the tests of a file, started before them and
 * closed after: with `objectStore`, on an s3rver bucket of its own; with `when` false (a
 * PostgreSQL-only file run on SQLite), nothing is started.
 */
export function fileHarness(options: { objectStore?: boolean; when?: boolean } = {}): FileHarness {
  const shared = {} as FileHarness;
  beforeAll(async () => {
    if (options.when === false) return;
    if (options.objectStore) shared.s3 = await startObjectStore();
    shared.h = await startHarness(shared.s3?.env);
    shared.f = await providerFixtures(shared.h);
  });
  afterAll(async () => {
    await shared.f?.workers.stop();
    await shared.h?.close();
    await shared.s3?.close();
  });
  return shared;
}
