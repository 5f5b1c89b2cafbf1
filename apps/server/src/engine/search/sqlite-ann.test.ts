import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openReaderPool } from './reader-pool.ts';
import { INDEXED_FROM } from './vectors.ts';
import { annBase, annThrough, annUpkeep } from './sqlite-ann.ts';

/** A collection's vectors table of one granularity, its rows 4-dimension unit vectors of one embedder. */
const COLLECTION = '00000000-0000-4000-8000-000000000001';
const KEY = 'test:model:4';
let directory: string;
let connection: SQLite.Database;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'sift-ann-'));
  connection = new SQLite(join(directory, `${COLLECTION}.db`));
  connection.exec('create table vectors_pages (rowid integer primary key, embedder text not null, vector blob not null)');
});
afterEach(() => {
  connection.close();
  rmSync(directory, { recursive: true, force: true });
});

const addRows = (from: number, to: number, key = KEY) => {
  const insert = connection.prepare('insert or replace into vectors_pages (rowid, embedder, vector) values (?, ?, ?)');
  connection.transaction(() => {
    for (let rowid = from; rowid <= to; rowid++) {
      const angle = rowid / 7;
      insert.run(rowid, key, Buffer.from(new Float32Array([Math.cos(angle), Math.sin(angle), 0, 0]).buffer));
    }
  })();
};
const upkeep = (ann: ReturnType<typeof annUpkeep>, key = KEY) => {
  while (ann.step(key));
};
const files = () => readdirSync(directory).filter((name) => name !== `${COLLECTION}.db`);

test('an index is made once a granularity has enough vectors, and extended by the rows newer than it', () => {
  const ann = annUpkeep(connection, directory, COLLECTION, [['pages', 'vectors_pages']]);
  const base = annBase(directory, COLLECTION, 'pages', KEY);
  addRows(1, INDEXED_FROM - 1);
  upkeep(ann);
  expect(files()).toEqual([]);
  addRows(INDEXED_FROM, INDEXED_FROM);
  upkeep(ann);
  expect(annThrough(base)).toBe(INDEXED_FROM);
  // A few newer rows are left to the exact scan; many are added.
  addRows(INDEXED_FROM + 1, INDEXED_FROM + 10);
  upkeep(ann);
  expect(annThrough(base)).toBe(INDEXED_FROM);
  addRows(INDEXED_FROM + 11, INDEXED_FROM + 3000);
  upkeep(ann);
  expect(annThrough(base)).toBe(INDEXED_FROM + 3000);
});

test('a vector written in place of one the index holds removes it; newer rows do not', () => {
  const ann = annUpkeep(connection, directory, COLLECTION, [['pages', 'vectors_pages']]);
  const base = annBase(directory, COLLECTION, 'pages', KEY);
  addRows(1, INDEXED_FROM);
  upkeep(ann);
  ann.replaced('pages', KEY, [INDEXED_FROM + 1]);
  expect(existsSync(`${base}.hnsw`)).toBe(true);
  ann.replaced('pages', KEY, [INDEXED_FROM + 1, 5]);
  expect(files()).toEqual([]);
  // Made again by the next upkeep.
  upkeep(ann);
  expect(annThrough(base)).toBe(INDEXED_FROM);
});

test('another embedder’s indexes go when upkeep runs for the configured one', () => {
  const ann = annUpkeep(connection, directory, COLLECTION, [['pages', 'vectors_pages']]);
  addRows(1, INDEXED_FROM);
  upkeep(ann);
  const other = 'test:other:4';
  addRows(1, INDEXED_FROM, other);
  upkeep(ann, other);
  expect(files().sort()).toEqual([`${annBase('', COLLECTION, 'pages', other)}.hnsw`, `${annBase('', COLLECTION, 'pages', other)}.json`]);
});

test('readers without hnswlib-node read no index: every row is scanned exactly', async () => {
  const ann = annUpkeep(connection, directory, COLLECTION, [['pages', 'vectors_pages']]);
  const base = annBase(directory, COLLECTION, 'pages', KEY);
  addRows(1, INDEXED_FROM);
  upkeep(ann);
  const main = join(directory, 'main.db');
  new SQLite(main).close();
  const query = Buffer.from(new Float32Array([1, 0, 0, 0]).buffer);
  const ask = async (hnswlib?: null) => {
    const pool = openReaderPool({ databasePath: main, threads: 1, hnswlib });
    try {
      const [row] = await pool.all<{ through: number; nearest: string }>(join(directory, `${COLLECTION}.db`), 'select ann_through(?) as through, ann_nearest(?, ?, 3) as nearest', [base, base, query]);
      return { through: row!.through, nearest: JSON.parse(row!.nearest) as number[] };
    } finally {
      await pool.close();
    }
  };
  const indexed = await ask();
  expect(indexed.through).toBe(INDEXED_FROM);
  expect(indexed.nearest).toHaveLength(3);
  // Through 0: the search's exact scan takes every row (sqlite.ts); the index gives none.
  expect(await ask(null)).toEqual({ through: 0, nearest: [] });
});
