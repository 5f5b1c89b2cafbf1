import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { fileStore } from '../file-store.ts';
import { diskObjects } from './disk-objects.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'sift-files-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('small and large files are stored whole under their SHA-256, with no temporary file left', async () => {
  const store = fileStore(diskObjects(dataDir));
  const small = Buffer.from('a few bytes of text');
  const large = Buffer.alloc(3 << 20, 7); // past the size written synchronously
  for (const bytes of [small, large]) {
    const hash = await store.put(bytes);
    expect(hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await store.read(hash)).equals(bytes)).toBe(true);
    expect(await store.put(bytes)).toBe(hash); // the same content is one file
  }
  const names = readdirSync(join(dataDir, 'files'), { recursive: true }).map(String);
  expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
});
