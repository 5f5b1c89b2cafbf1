import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueSessionToken } from '../src/auth/session.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { upsertUserByEmail } from '../src/domain/accounts.ts';
import { buildApp } from '../src/http/app.ts';
import { createAppContext, type Lifecycle } from '../src/http/context.ts';
import { freshPostgresSchema } from './postgres-schema.ts';

/**
 * A real server on a fresh database: SQLite in a temporary folder, or PostgreSQL (a fresh schema
 * per harness) when SIFT_TEST_DIALECT=postgres and TEST_POSTGRES_URL are set, as
 * scripts/test-postgres.mjs does, or as `options.dialect` says. Requests go through Fastify's inject
 * unless a test calls `listen()`.
 */
export async function startHarness(env: Record<string, string> = {}, options: { dialect?: 'sqlite' | 'postgres'; lifecycle?: Lifecycle } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-test-'));
  const dialect = options.dialect ?? (process.env.SIFT_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite');
  const onPostgres = dialect === 'postgres' && process.env.TEST_POSTGRES_URL && !env.DATABASE_URL;
  const postgres = onPostgres ? await freshPostgresSchema(process.env.TEST_POSTGRES_URL!) : null;
  const config = loadConfig({
    SIFT_DATA_DIR: dataDir,
    SIFT_SECRET: 'test-secret-0123456789abcdef',
    LOG_LEVEL: 'silent',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const database = await openDatabase(config);
  const context = createAppContext(config, database, options.lifecycle);
  const { keyring, files, engine } = context;
  const app = await buildApp(context);

  const call = async (path: string, body: unknown = {}, token?: string) => {
    const response = await app.inject({
      method: 'POST',
      url: path,
      payload: body as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.statusCode, body: response.body ? response.json() : undefined, headers: response.headers };
  };

  /** A signed-in user and their session token. */
  const signIn = async (email: string, name = email.split('@')[0]!) => {
    const user = await upsertUserByEmail(database, { email, name });
    return { ...user, token: await issueSessionToken(database, keyring, user.id) };
  };

  return {
    app,
    config,
    context,
    database,
    keyring,
    files,
    engine,
    call,
    signIn,
    async close() {
      try {
        await app.close();
        await database.destroy();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startHarness>>;
