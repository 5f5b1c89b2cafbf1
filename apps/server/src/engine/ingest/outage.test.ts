import { describe, expect, test } from 'vitest';
import { ObjectMissing } from '../../file-store.ts';
import { Backoff, isDependencyDown, ObjectStoreUnreachable, readObject } from './outage.ts';

describe('telling a dependency down from a document at fault', () => {
  test('a missing object is the document’s own fault; any other failed read is the store’s', async () => {
    await expect(readObject(() => Promise.reject(new ObjectMissing('h')), 'h')).rejects.toBeInstanceOf(ObjectMissing);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' });
    const error = await readObject(() => Promise.reject(refused), 'h').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ObjectStoreUnreachable);
    expect(isDependencyDown(error)).toBe(true);
    expect(isDependencyDown(new ObjectMissing('h'))).toBe(false);
  });

  test('a database that cannot be reached is down; a bad statement or a parse failure is not', () => {
    expect(isDependencyDown(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDependencyDown(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyDown(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDependencyDown(new Error('The PDF is encrypted.'))).toBe(false);
  });

  test('the wait doubles from half a second up to 30 s, and starts again once work goes through', () => {
    const lines: string[] = [];
    const backoff = new Backoff({ info: (line) => lines.push(line) });
    const waits = Array.from({ length: 9 }, () => backoff.failed(new Error('down')));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    backoff.succeeded();
    expect(backoff.failed(new Error('down again'))).toBe(500);
    // Said once when an outage starts and once when it ends, not per attempt.
    expect(lines).toHaveLength(3);
  });
});
