import { expect, test } from 'vitest';
import { DependencyUnavailable, dependencyUnavailable, isDatabaseUnreachable, isObjectStoreUnreachable } from './dependencies.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('an unreachable database is told apart from a failed statement', () => {
  expect(isDatabaseUnreachable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
  expect(isDatabaseUnreachable(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]))).toBe(true);
  expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnreachable(new Error('Connection terminated due to connection timeout'))).toBe(true);
  expect(isDatabaseUnreachable(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
  expect(isDatabaseUnreachable(withCode('the database system is starting up', '57P03'))).toBe(true);
  expect(isDatabaseUnreachable(withCode('syntax error at or near "selec"', '42601'))).toBe(false);
  expect(isDatabaseUnreachable(withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021'))).toBe(false);
  expect(isDatabaseUnreachable(withCode('database is locked', 'SQLITE_BUSY'))).toBe(false); // contention: contention.ts
  // Another service's failure that only wraps a refused connection is not the database's.
  expect(isDatabaseUnreachable(new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }))).toBe(false);
});

test("an unreachable object store is told apart from the store's answers", () => {
  const answered = (status: number) => Object.assign(new Error(''), { name: status === 404 ? 'NoSuchKey' : 'ServiceUnavailable', $metadata: { httpStatusCode: status } });
  expect(isObjectStoreUnreachable(answered(503))).toBe(true);
  expect(isObjectStoreUnreachable(answered(500))).toBe(true);
  expect(isObjectStoreUnreachable(answered(404))).toBe(false);
  expect(isObjectStoreUnreachable(answered(403))).toBe(false);
  expect(isObjectStoreUnreachable(Object.assign(new Error('socket hang up'), { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }))).toBe(true);
  expect(isObjectStoreUnreachable(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(true);
});

test('dependencyUnavailable: the outage an error means, for the error handler and ingestion', () => {
  const s3 = new DependencyUnavailable('object store', 'connect ECONNREFUSED');
  expect(dependencyUnavailable(s3)).toBe(s3);
  expect(dependencyUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toMatchObject({ dependency: 'database', reason: 'connect ECONNREFUSED 127.0.0.1:5432' });
  expect(dependencyUnavailable(new Error('no stored object abc'))).toBeNull();
});
