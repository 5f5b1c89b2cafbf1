import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ObjectMissing, type ObjectStore } from '../file-store.ts';

/** Raw files under `<dataDir>/files/<first two hex digits>/<sha256>`: one machine, SQLite mode (sqlite-objects.ts). */
export function diskObjects(dataDir: string): ObjectStore & { pathOf(hash: string): string } {
  const root = join(dataDir, 'files');
  const pathOf = (hash: string) => join(root, hash.slice(0, 2), hash);
  const folders = new Set<string>();
  return {
    kind: 'disk',
    pathOf,
    async write(hash, bytes) {
      const folder = join(root, hash.slice(0, 2));
      if (!folders.has(folder)) {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        folders.add(folder);
      }
      // Written whole then renamed: a crash never leaves a half file under a content hash.
      // Off the HTTP thread, whatever the size: creating a file waits on the file system's
      // journal, which would stop the thread, while the thread pool's round trips cost it little.
      const temporary = `${pathOf(hash)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o600 }); // its user's alone, whatever the umask
      await rename(temporary, pathOf(hash));
    },
    read: (hash) =>
      readFile(pathOf(hash)).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? new ObjectMissing(hash) : error;
      }),
    exists: (hash) => stat(pathOf(hash)).then(
      () => true,
      () => false,
    ),
    async stream(hash) {
      await stat(pathOf(hash)); // rejects before any byte is sent when the file is gone
      return createReadStream(pathOf(hash));
    },
    async remove(hashes) {
      await Promise.all(hashes.map((hash) => rm(pathOf(hash), { force: true })));
    },
    close: async () => {},
  };
}
