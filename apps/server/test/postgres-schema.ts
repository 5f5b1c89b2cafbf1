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

/**
 * A fresh database of its own beside TEST_POSTGRES_URL's, for a test that waits on every older
 * transaction of its database (a concurrent rebuild), which other test files' would hold up.
 * `drop` removes it, closing any connection left to it.
 */
export async function freshPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sift_test_${process.env.SIFT_TEST_RUN ?? 'adhoc'}_${randomBytes(6).toString('hex')}`;
  const onAdmin = async (statement: string) => {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await onAdmin(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onAdmin(`drop database if exists ${name} with (force)`) };
}
