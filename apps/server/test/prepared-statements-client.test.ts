import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { PreparedStatementsClient } from '../src/db/prepared-statements-client.ts';
import { freshPostgresSchema } from './postgres-schema.ts';

/**
 * PostgreSQL connections that keep their statements prepared: a statement is prepared once and
 * answers every call after; with `preparedMostParameters`, one with more parameters is not kept.
 */
const url = process.env.TEST_POSTGRES_URL;
const clients: PreparedStatementsClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});

async function connect(config: { preparedMostParameters?: number } = {}) {
  const client = new PreparedStatementsClient({ connectionString: url, ...config });
  clients.push(client);
  await client.connect();
  return client;
}

/** The statements this connection holds prepared, by their text. */
async function preparedTexts(client: PreparedStatementsClient): Promise<string[]> {
  const { rows }: pg.QueryResult<{ statement: string }> = await client.query('select statement from pg_prepared_statements order by statement', []);
  return rows.map((row) => row.statement);
}

/** The `n` a statement answers. */
async function answer(client: PreparedStatementsClient, text: string, values: number[]): Promise<number> {
  const { rows }: pg.QueryResult<{ n: number }> = await client.query(text, values);
  return rows[0]!.n;
}

test.runIf(url)('a statement is prepared once and answers each call with its own values', async () => {
  const client = await connect();
  const text = 'select $1::int + $2::int as n';
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await answer(client, text, [i, 10]));
  expect(answers).toEqual([10, 11, 12]);
  expect((await preparedTexts(client)).filter((statement) => statement === text)).toHaveLength(1);
});

test.runIf(url)('a statement of more parameters than the bound answers but is not kept prepared', async () => {
  const client = await connect({ preparedMostParameters: 2 });
  const small = 'select $1::int + $2::int as n';
  const bulk = 'select $1::int + $2::int + $3::int as n';
  expect(await answer(client, small, [1, 2])).toBe(3);
  expect(await answer(client, bulk, [1, 2, 3])).toBe(6);
  const prepared = await preparedTexts(client);
  expect(prepared).toContain(small);
  expect(prepared).not.toContain(bulk);
});

test.runIf(url)("the database's shared pool keeps its small statements prepared and its bulk writes (over 64 parameters) not", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-prepared-'));
  const database = await openDatabase({ dataDir, databaseUrl: (await freshPostgresSchema(url!)).url });
  try {
    const sum = (count: number) => sql.join(Array.from({ length: count }, (_, i) => sql`${i}::int`), sql` + `);
    const prepared = await database.db.connection().execute(async (connection) => {
      await sql`select ${sum(2)} as n`.execute(connection);
      await sql`select ${sum(65)} as n`.execute(connection);
      return (await sql<{ types: string }>`select parameter_types::text as types from pg_prepared_statements`.execute(connection)).rows;
    });
    const parameterCounts = prepared.map((row) => row.types.split(',').length);
    expect(parameterCounts).toContain(2);
    expect(parameterCounts).not.toContain(65);
  } finally {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
