import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openReaderPool, type ReaderPool } from '../src/engine/search/reader-pool.ts';

/** The SQLite searches' reader threads: many queries in flight at once, each answered with its own rows. */
describe.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')('the reader pool', () => {
  let dir: string;
  let pool: ReaderPool;
  let searchFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sift-readers-'));
    const main = new SQLite(join(dir, 'main.db'));
    main.exec('create table words (n integer primary key, word text not null)');
    const insert = main.prepare('insert into words (n, word) values (?, ?)');
    for (let n = 0; n < 100; n++) insert.run(n, `word-${n}`);
    main.close();
    searchFile = join(dir, 'search.db');
    const search = new SQLite(searchFile);
    search.exec('create table squares (n integer primary key, square integer not null)');
    const square = search.prepare('insert into squares (n, square) values (?, ?)');
    for (let n = 0; n < 100; n++) square.run(n, n * n);
    search.close();
    pool = openReaderPool({ databasePath: join(dir, 'main.db'), threads: 2 });
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('queries sent together, more than a thread takes in one message, each get their own rows as objects', async () => {
    const text = 'select w.word as word, s.square as square from words w join search.squares s on s.n = w.n where w.n = ?';
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => pool.all<{ word: string; square: number }>(searchFile, text, [n])));
    expect(answers).toEqual(Array.from({ length: 40 }, (_, n) => [{ word: `word-${n}`, square: n * n }]));
  });

  test('a query that fails, or whose parameters cannot reach the thread, fails alone', async () => {
    const text = 'select word from words where n = ?';
    const results = await Promise.allSettled([
      pool.all(searchFile, text, [1]),
      pool.all(searchFile, 'select nothing from nowhere', []),
      pool.all(searchFile, text, [() => 1]),
      pool.all(searchFile, text, [2]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(results[0]).toEqual({ status: 'fulfilled', value: [{ word: 'word-1' }] });
    expect(results[3]).toEqual({ status: 'fulfilled', value: [{ word: 'word-2' }] });
  });

  test('queries piling up behind a slow one are answered by the other thread', async () => {
    const order: string[] = [];
    const slow = pool
      .all(searchFile, 'with recursive c(n) as (select 1 union all select n + 1 from c where n < 3000000) select count(*) as n from c', [])
      .then(() => order.push('slow'));
    const quick = Array.from({ length: 100 }, (_, n) => pool.all(searchFile, 'select word from words where n = ?', [n]).then(() => order.push(`quick ${n}`)));
    await Promise.all([slow, ...quick]);
    // Queries sent once the first thread fell behind did not wait for the slow one: the other thread took them.
    expect(order.indexOf('quick 60')).toBeLessThan(order.indexOf('slow'));
  });

  test('a search file that does not exist matches nothing', async () => {
    expect(await pool.all(join(dir, 'missing.db'), 'select word from words', [])).toEqual([]);
  });
});
