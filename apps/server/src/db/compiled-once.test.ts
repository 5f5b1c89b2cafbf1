import SQLite from 'better-sqlite3';
import { Kysely, type RawBuilder, sql, SqliteDialect } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { CompiledOnce } from './compiled-once.ts';

const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterAll(() => db.destroy());

type Values = { word: string; times: number; offset: number };
const statements = new CompiledOnce<Values>();

const run = async <Row>(shape: string, build: (values: Values) => RawBuilder<Row>, values: Values) => (await db.executeQuery(statements.compiled(db, shape, build, values))).rows;

test('a statement compiled once per shape runs with each call its own values, in their places', async () => {
  let compiled = 0;
  // Values used twice and out of their declared order, beside a constant of the shape.
  const build = (shape: string) => (values: Values) => {
    compiled++;
    return sql<{ text: string; n: number }>`select ${shape} || ':' || ${values.word} || ${values.word} as text, ${values.offset} + ${values.times} * 10 as n`;
  };
  expect(await run('a', build('a'), { word: 'x', times: 1, offset: 2 })).toEqual([{ text: 'a:xx', n: 12 }]);
  expect(await run('a', build('a'), { word: 'yz', times: 3, offset: 4 })).toEqual([{ text: 'a:yzyz', n: 34 }]);
  expect(await run('b', build('b'), { word: 'q', times: 0, offset: 7 })).toEqual([{ text: 'b:qq', n: 7 }]);
  expect(compiled).toBe(2);
});
