// Part of `npm test`: with TEST_POSTGRES_URL set (CI sets it when PostgreSQL answers), the
// server's API and SDK suites run a second time, against PostgreSQL.
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_POSTGRES_URL) {
  console.log('TEST_POSTGRES_URL is not set: the API and SDK suites ran on SQLite only.');
  process.exit(0);
}
const result = spawnSync('npx', ['vitest', 'run', '--project', 'server', 'test/'], {
  stdio: 'inherit',
  env: { ...process.env, SIFT_TEST_DIALECT: 'postgres' },
});
process.exit(result.status ?? 1);
