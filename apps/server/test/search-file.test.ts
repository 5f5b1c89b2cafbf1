import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { openDatabase } from '../src/db/database.ts';
import { ensureSearchFiles, ftsTable, GRANULARITIES, lengthsTable, searchDirectory, searchFilePath } from '../src/engine/search/sqlite-file.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** SQLite keeps each collection's FTS5 tables in a search file of its own; PostgreSQL has no such file. */
describe.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')('the SQLite search file', () => {
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  beforeAll(async () => {
    h = await startHarness();
    f = await providerFixtures(h);
    await h.call('/v1/collections/add-collection', { collection_name: 'files' }, f.keyA);
    for (const [path, text] of [
      ['otters.txt', 'Otters hold hands while they sleep.\n\nA raft of otters drifts on kelp.'],
      ['herons.txt', 'Herons wait in the shallows for fish.'],
      ['kelp.txt', 'Kelp forests shelter otters and fish alike.'],
    ]) {
      await h.call('/v1/documents/add-document', { collection_name: 'files', path, content: { type: 'text', text } }, f.keyA);
    }
    await f.workers.idle();
  });
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
  });

  const paths = async (query: string, k = 10) => {
    const response = await h.call('/v1/queries/top-documents', { collection_name: 'files', query, k }, f.keyA);
    expect(response.status).toBe(200);
    return (response.body as { results: { path: string }[] }).results.map((result) => result.path).sort();
  };
  const collectionId = async (name: string) =>
    (await h.database.db.selectFrom('collections').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const pendingDeletions = () => {
    const connection = new SQLite(h.database.sqlitePath!, { readonly: true });
    const { n } = connection.prepare('select count(*) as n from search_deletions').get() as { n: number };
    connection.close();
    return n;
  };

  /** The main file alone, copied into `dir`: a data folder whose search files are lost. */
  const copyOfMainFile = (dir: string): string => {
    const copy = join(dir, 'sift.db');
    const source = new SQLite(h.database.sqlitePath!, { readonly: true });
    source.exec(`vacuum into '${copy}'`);
    source.close();
    return copy;
  };
  const statistics = (connection: SQLite.Database) => connection.prepare('select * from stats order by granularity').all();
  /**
   * A collection's search file ranks as one rebuilt from a copy of the main file alone
   * does (what a data folder looks like once its search files are lost), in every granularity.
   */
  const expectRankedAsRebuilt = async (id: string) => {
    const copyDir = mkdtempSync(join(tmpdir(), 'sift-search-copy-'));
    try {
      const copy = copyOfMainFile(copyDir);
      ensureSearchFiles(copy);
      const original = new SQLite(searchFilePath(h.database.sqlitePath!, id), { readonly: true });
      const rebuilt = new SQLite(searchFilePath(copy, id), { readonly: true });
      // What BM25 is computed from (rank.ts): the statistics, each row's length, and each matching
      // row's frequency of each term.
      expect(statistics(rebuilt)).toEqual(statistics(original));
      for (const granularity of GRANULARITIES) {
        const table = ftsTable(granularity);
        const lengths = (connection: SQLite.Database) => connection.prepare(`select rowid, length from ${lengthsTable(granularity)} order by rowid`).all();
        expect(lengths(rebuilt)).toEqual(lengths(original));
        // Every row's tokens: each term it holds, with its frequency (sqlite-file.ts postingsText).
        const frequencies = (connection: SQLite.Database) => {
          connection.exec(`create virtual table if not exists temp.v_${table} using fts5vocab(main, '${table}', 'instance')`);
          return connection.prepare(`select term, doc from temp.v_${table} order by term, doc`).all();
        };
        expect(frequencies(rebuilt).length).toBeGreaterThan(0);
        expect(frequencies(rebuilt)).toEqual(frequencies(original));
      }
      original.close();
      rebuilt.close();
    } finally {
      rmSync(copyDir, { recursive: true, force: true });
    }
  };

  test('a deleted document leaves search at once; ingestion then removes its index rows', async () => {
    expect(await paths('otters')).toEqual(['kelp.txt', 'otters.txt']);
    await f.workers.stop(); // nothing applies the deletions until workers run again
    const deleted = await h.call('/v1/documents/delete-document', { collection_name: 'files', path: 'otters.txt' }, f.keyA);
    expect(deleted.status).toBe(200);
    // The document, its page and its snippets each left a deletion for the search file's writer.
    expect(pendingDeletions()).toBeGreaterThanOrEqual(3);
    expect(await paths('otters')).toEqual(['kelp.txt']);
    // Its index rows, still in the search file, do not take the place of a live document in the k.
    expect(await paths('otters', 1)).toEqual(['kelp.txt']);
    const snippets = await h.call('/v1/queries/top-snippets', { collection_name: 'files', query: 'otters', k: 1, precise_responses: true }, f.keyA);
    expect((snippets.body as { results: { path: string }[] }).results.map((result) => result.path)).toEqual(['kelp.txt']);

    // Idle workers apply the deletions; a new document is indexed as usual.
    f.workers = await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 });
    await f.workers.idle();
    expect(pendingDeletions()).toBe(0);
    await h.call('/v1/documents/add-document', { collection_name: 'files', path: 'seals.txt', content: { type: 'text', text: 'Seals haul out on rocks.' } }, f.keyA);
    await f.workers.idle();
    expect(await paths('seals')).toEqual(['seals.txt']);
    expect(await paths('otters', 1)).toEqual(['kelp.txt']);
  });

  test('an index write waits while another connection holds the search file, then lands', async () => {
    await f.workers.stop();
    await h.call('/v1/documents/add-document', { collection_name: 'files', path: 'gulls.txt', content: { type: 'text', text: 'Gulls follow the ferry.' } }, f.keyA);
    const holder = new SQLite(searchFilePath(h.database.sqlitePath!, await collectionId('files')));
    holder.exec('begin immediate');
    holder.exec('update index_writes set writes = writes + 1');
    // The writer polls between event-loop turns, so the holder can let go from a timer.
    let released = 0;
    setTimeout(() => {
      holder.exec('commit');
      released = Date.now();
    }, 100);
    f.workers = await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 });
    await f.workers.idle();
    holder.close();
    expect(released).toBeGreaterThan(0); // indexing finished only after the holder let go
    expect(await paths('gulls')).toEqual(['gulls.txt']);
  });

  test('a missing search file is rebuilt from the indexed documents, ranking as before', async () => {
    await f.workers.idle(); // pending deletions applied: the original's statistics count live rows only
    await expectRankedAsRebuilt(await collectionId('files'));
  });

  // user_version 0: not a search file; 3: the format before postings held each term once.
  test.each([0, 3])('a search file of another format (%i) is made anew in its place, and no draft of it is left', async (format) => {
    await f.workers.idle();
    const id = await collectionId('files');
    const copyDir = mkdtempSync(join(tmpdir(), 'sift-search-stale-'));
    try {
      const copy = copyOfMainFile(copyDir);
      mkdirSync(searchDirectory(copy));
      const stale = new SQLite(searchFilePath(copy, id));
      stale.exec('create table leftover (x)');
      stale.pragma(`user_version = ${format}`);
      stale.close();
      ensureSearchFiles(copy);
      const rebuilt = new SQLite(searchFilePath(copy, id), { readonly: true });
      const live = new SQLite(searchFilePath(h.database.sqlitePath!, id), { readonly: true });
      expect(rebuilt.prepare(`select count(*) as n from sqlite_master where name = 'leftover'`).get()).toEqual({ n: 0 });
      expect(statistics(rebuilt)).toEqual(statistics(live));
      rebuilt.close();
      live.close();
      expect(readdirSync(searchDirectory(copy)).filter((name) => name.includes('.draft-'))).toEqual([]);
    } finally {
      rmSync(copyDir, { recursive: true, force: true });
    }
  });

  test('a rebuild takes every document of a collection larger than one page of documents (64)', async () => {
    await h.call('/v1/collections/add-collection', { collection_name: 'many' }, f.keyA);
    for (let i = 0; i < 70; i++) {
      const text = `Tide pool ${i}: ${i % 2 ? 'crabs' : 'limpets'} and anemones.\n\n${'Barnacles. '.repeat(1 + (i % 5))}`;
      await h.call('/v1/documents/add-document', { collection_name: 'many', path: `pool-${i}.txt`, content: { type: 'text', text } }, f.keyA);
    }
    await f.workers.idle();
    await expectRankedAsRebuilt(await collectionId('many'));
  });

  test('idle ingestion merges the segments that writes left, one per table, ranking as a rebuilt index does', async () => {
    await f.workers.stop();
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'segments' }, f.keyA)).status).toBe(201);
    // Enough distinct terms a write that FTS5 does not merge its segments at once on its own.
    const words = (i: number) => Array.from({ length: 3000 }, (_, j) => `w${(i * 7919 + j * 104729) % 20011}`).join(' ');
    for (let i = 0; i < 6; i++) {
      const text = `Seals ${i} haul out on rocks. ${words(i)}\n\nGulls and seals share the shore ${i} times a day.`;
      await h.call('/v1/documents/add-document', { collection_name: 'segments', path: `seal-${i}.txt`, content: { type: 'text', text } }, f.keyA);
    }
    // One document a batch: a write, and a segment in each table, per document, as a stream of uploads leaves.
    f.workers = await h.engine.startIngestion({ concurrency: 1, idlePollMs: 50, leases: { batchSize: 1 } });
    await f.workers.idle();
    const id = await collectionId('segments');
    const file = new SQLite(searchFilePath(h.database.sqlitePath!, id), { readonly: true });
    const segments = () => GRANULARITIES.map((granularity) => (file.prepare(`select count(distinct segid) as n from ${ftsTable(granularity)}_idx`).get() as { n: number }).n);
    await expect.poll(segments).toEqual([1, 1, 1, 1]);
    expect(await h.engine.search.upkeepStep()).toBe(false);
    file.close();
    await expectRankedAsRebuilt(id);
  });

  test('an ingestion thread opening the database leaves alone a search file another thread is creating', async () => {
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'creating' }, f.keyA)).status).toBe(201);
    const file = searchFilePath(h.database.sqlitePath!, await collectionId('creating'));
    // A writer's first moment: the file made, its tables not yet (they come in one transaction).
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    const inode = statSync(file).ino;
    const thread = await openDatabase({ dataDir: h.config.dataDir, searchFilesInLine: true });
    await thread.destroy();
    expect(statSync(file).ino).toBe(inode);
    // What the writer goes on to write is in the file searches read.
    writer.exec('create table written (n integer)');
    writer.exec('insert into written values (1)');
    writer.close();
    const reader = new SQLite(file, { readonly: true });
    expect(reader.prepare('select n from written').pluck().get()).toBe(1);
    reader.close();
    rmSync(file, { force: true });
  });

  test('a new search file appears whole, its drafts gone; a draft left by a stopped writer goes at start', async () => {
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'whole' }, f.keyA)).status).toBe(201);
    await h.call('/v1/documents/add-document', { collection_name: 'whole', path: 'auks.txt', content: { type: 'text', text: 'Auks nest on cliffs.' } }, f.keyA);
    await f.workers.idle();
    const id = await collectionId('whole');
    const file = new SQLite(searchFilePath(h.database.sqlitePath!, id), { readonly: true });
    // Made with its tables and incremental auto-vacuum before it was linked into place.
    expect([file.pragma('auto_vacuum', { simple: true }), file.pragma('journal_mode', { simple: true })]).toEqual([2, 'wal']);
    file.close();
    const drafts = () => readdirSync(searchDirectory(h.database.sqlitePath!)).filter((name) => name.includes('.draft-'));
    expect(drafts()).toEqual([]);
    writeFileSync(`${searchFilePath(h.database.sqlitePath!, id)}.draft-1-1`, '');
    ensureSearchFiles(h.database.sqlitePath!);
    expect(drafts()).toEqual([]);
    expect((await h.call('/v1/queries/top-documents', { collection_name: 'whole', query: 'auks', k: 10 }, f.keyA)).body.results.map((r: { path: string }) => r.path)).toEqual(['auks.txt']);
  });

  test("a collection's search file comes with its first indexed document and goes with it", async () => {
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'briefly' }, f.keyA)).status).toBe(201);
    const file = searchFilePath(h.database.sqlitePath!, await collectionId('briefly'));
    // An empty collection costs no file.
    expect(existsSync(file)).toBe(false);
    await h.call('/v1/documents/add-document', { collection_name: 'briefly', path: 'terns.txt', content: { type: 'text', text: 'Terns dive for fish.' } }, f.keyA);
    await f.workers.idle();
    expect(existsSync(file)).toBe(true);
    expect((await h.call('/v1/collections/delete-collection', { collection_name: 'briefly' }, f.keyA)).status).toBe(200);
    expect(existsSync(file)).toBe(false);
  });
});
