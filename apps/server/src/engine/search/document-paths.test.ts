import { expect, test } from 'vitest';
import { DocumentPaths } from './document-paths.ts';

/** Paths as a database would answer them, and the ids each read asked for. */
function database(paths: Record<string, string>) {
  const reads: string[][] = [];
  const read = async (ids: string[]) => {
    reads.push(ids);
    return ids.filter((id) => id in paths).map((id) => ({ id, path: paths[id]! }));
  };
  return { reads, paths: new DocumentPaths(read) };
}

const hit = (documentId: string, path: string | null = null) => ({ documentId, path, startIndex: 0 });

test('a path is read once, for the hits that lack one, and kept for later searches', async () => {
  const { reads, paths } = database({ a: 'a.txt', b: 'b.txt' });
  expect((await paths.withPaths([hit('a'), hit('b'), hit('a')])).map((h) => h.path)).toEqual(['a.txt', 'b.txt', 'a.txt']);
  expect(reads).toEqual([['a', 'b']]);
  expect((await paths.withPaths([hit('b'), hit('a')])).map((h) => h.path)).toEqual(['b.txt', 'a.txt']);
  // A hit that came with its path (metadata asked for, the documents table joined) needs no read.
  expect((await paths.withPaths([hit('c', 'c.txt')])).map((h) => h.path)).toEqual(['c.txt']);
  expect(reads).toEqual([['a', 'b']]);
});

test('a hit whose document is gone by the time its path is read is left out, the others kept in order', async () => {
  const { paths } = database({ a: 'a.txt', c: 'c.txt' });
  expect((await paths.withPaths([hit('c'), hit('gone'), hit('a')])).map((h) => h.documentId)).toEqual(['c', 'a']);
});
