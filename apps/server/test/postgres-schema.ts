import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh, empty schema in the PostgreSQL database of TEST_POSTGRES_URL, and a connection string
 * whose `search_path` points at it: every harness gets its own tables. The run's schemas are
 * dropped together when it ends (postgres-schemas.setup.ts).
 */
export async function freshPostgresSchema(baseUrl: string): Promise<{ url: string }> {
  const schema = `sift_test_${process.env.SIFT_TEST_RUN ?? 'adhoc'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString() };
}
