import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Vitest global setup of the server project. The PostgreSQL schemas a run makes (postgres-schema.ts)
 * are named after the run and dropped together when it ends, not one by one as test files
 * finish: Kysely's migrator introspects every schema of the database (has_schema_privilege on
 * each), and a schema another file dropped meanwhile failed a starting harness with
 * "schema ... does not exist".
 */
export async function setup(): Promise<() => Promise<void>> {
  const run = randomBytes(4).toString('hex');
  process.env.SIFT_TEST_RUN = run;
  await installVectorExtension();
  return async () => {
    if (!process.env.TEST_POSTGRES_URL) return;
    const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like $1`, [`sift_test_${run}_%`]);
      for (const { name } of rows) await client.query(`drop schema if exists ${name} cascade`);
    } finally {
      await client.end();
    }
  };
}

/**
 * pgvector in `public`, once, when the server has it (.ci/run builds it): a migration would
 * otherwise create it in the first test schema, and dropping that schema would take the
 * extension, and every other schema's vectors, with it.
 */
async function installVectorExtension(): Promise<void> {
  if (!process.env.TEST_POSTGRES_URL) return;
  const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query(`select 1 from pg_available_extensions where name = 'vector'`);
    if (rows.length > 0) await client.query('create extension if not exists vector schema public');
  } finally {
    await client.end();
  }
}
