import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { type DocumentRow, insertDocumentRows, insertQueryRows, insertRerankRows } from '../../test/usage-rows.ts';
import { foldDocumentUsage } from '../db/document-usage-pending.ts';
import { splitRange } from '../db/usage-buckets.ts';
import { bootstrap } from './bootstrap.ts';
import { addDocumentEvent } from './usage-events.ts';
import {
  calendarMonth,
  getDocumentUsageHistory,
  getModelsUsageCounters,
  getQueryUsageHistory,
  getRerankUsageHistory,
  getUsageCounters,
  historyWindows,
} from './usage.ts';

let h: Harness;
const day = (iso: string) => Date.parse(iso) / 1000;
const D = day('2026-11-01T00:00:00Z');

beforeAll(async () => {
  h = await startHarness();
  await bootstrap(h.database, h.keyring, { email: 'usage@example.com', name: 'U', organizationName: 'Usage Org' });
});
afterAll(() => h.close());

async function freshOrganization(name: string) {
  return (await bootstrap(h.database, h.keyring, { email: `${name}@example.com`, name, organizationName: name })).organizationId;
}

describe('usage histories', () => {
  test('rows exactly at start_time and end_time count; rows a second outside do not', async () => {
    const org = await freshOrganization('edges');
    const start = D + 3600;
    const end = D + 2 * 3600 - 1;
    await insertDocumentRows(h.database, [
      { at: start - 60, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 1 },
      { at: start, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 10 },
      { at: end - 59, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 100 },
      { at: end + 1, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 1000 },
    ]);
    const history = await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { start_time: start, end_time: end, aggregation_window: 'minutely' });
    expect(history.history).toHaveLength(60);
    expect(history.totals.docs).toEqual({ count: 2, bytes: 110 });
    expect(history.history[0]!.stats.docs).toEqual({ count: 1, bytes: 10 });
    expect(history.history[59]!.stats.docs).toEqual({ count: 1, bytes: 100 });
  });

  test('every window of the range is listed, oldest first, empty ones as zeros', async () => {
    const org = await freshOrganization('empty');
    await insertQueryRows(h.database, [{ at: D + 5 * 3600 + 17, organizationId: org, collection: 'a', queryBytes: 42 }]);
    const history = await getQueryUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { start_time: D, end_time: D + 86_399, aggregation_window: 'hourly' });
    expect(history.history.map((w) => w.window_start)).toEqual(Array.from({ length: 24 }, (_, k) => D + k * 3600));
    expect(history.history.filter((w) => w.stats.queries.count > 0).map((w) => w.window_start)).toEqual([D + 5 * 3600]);
    expect(history.history[0]!.stats.queries).toEqual({ count: 0, bytes: 0 });
    expect(history.totals.queries).toEqual({ count: 1, bytes: 42 });
  });

  test('the last minute of a day and the first of the next fall in different daily windows', async () => {
    const org = await freshOrganization('days');
    await insertDocumentRows(h.database, [
      { at: D + 86_400 - 60, organizationId: org, collection: 'a', eventType: 'indexed', fileBytes: 5 },
      { at: D + 86_400, organizationId: org, collection: 'a', eventType: 'indexed', fileBytes: 7 },
    ]);
    const history = await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { start_time: D, end_time: D + 3 * 86_400 - 1, aggregation_window: 'daily' });
    expect(history.history.map((w) => w.stats.indexed)).toEqual([{ count: 1, bytes: 5 }, { count: 1, bytes: 7 }, { count: 0, bytes: 0 }]);
  });

  test('collection_names: absent means all, a list means those, an empty list means none', async () => {
    const org = await freshOrganization('filters');
    await insertDocumentRows(h.database, [
      { at: D + 60, organizationId: org, collection: 'alpha', eventType: 'added', fileBytes: 1 },
      { at: D + 120, organizationId: org, collection: 'beta', eventType: 'added', fileBytes: 2 },
      { at: D + 180, organizationId: org, collection: 'gamma', eventType: 'added', fileBytes: 4 },
    ]);
    const range = { start_time: D, end_time: D + 86_399, aggregation_window: 'daily' as const };
    const bytes = async (collection_names?: string[]) =>
      (await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { ...range, collection_names })).totals.docs.bytes;
    expect(await bytes()).toBe(7);
    expect(await bytes(['alpha', 'gamma'])).toBe(5);
    expect(await bytes([])).toBe(0);
    expect(await bytes(['nothing-like-it'])).toBe(0);
  });

  test('metrics: Docs are additions, OCR pages come from parsing, Indexed from indexing; Rerank counts every reranker call, including the queries\' reranker option', async () => {
    const org = await freshOrganization('metrics');
    await insertDocumentRows(h.database, [
      { at: D, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 300 },
      { at: D, organizationId: org, collection: 'a', eventType: 'parsed', fileBytes: 300, ocrPages: 3 },
      { at: D + 60, organizationId: org, collection: 'a', eventType: 'parsed', fileBytes: 50 },
      { at: D, organizationId: org, collection: 'a', eventType: 'indexed', fileBytes: 300 },
      { at: D, organizationId: org, collection: 'a', eventType: 'deleted', fileBytes: 300 },
    ]);
    await insertRerankRows(h.database, [
      { at: D, organizationId: org, requestBytes: 20, tokens: 5 },
      { at: D, organizationId: org, explicit: false, requestBytes: 999 },
    ]);
    const range = { start_time: D, end_time: D + 3599, aggregation_window: 'hourly' as const };
    const documents = await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, range);
    expect(documents.totals).toEqual({ docs: { count: 1, bytes: 300 }, ocr: { count: 3, bytes: 300 }, indexed: { count: 1, bytes: 300 } });
    const rerank = await getRerankUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { ...range, collection_names: [] });
    expect(rerank.totals.rerank).toEqual({ count: 2, bytes: 1019 });
  });

  test('a reversed range or too many windows is refused with the reason', () => {
    expect(() => historyWindows({ start_time: 10, end_time: 9, aggregation_window: 'daily' })).toThrow('end_time must not be before start_time.');
    expect(() => historyWindows({ start_time: 0, end_time: 7 * 86_400 - 1, aggregation_window: 'minutely' })).not.toThrow();
    expect(() => historyWindows({ start_time: 0, end_time: 7 * 86_400, aggregation_window: 'minutely' })).toThrow(/at most 10080.*at most 7 days/);
  });
});

describe('hourly rollups', () => {
  test('range splitting uses whole hours only where every window edge is on an hour', () => {
    expect(splitRange(D + 90, D + 3 * 3600 + 60)).toEqual([
      { level: 'minute', from: D + 90, to: D + 3600 },
      { level: 'hour', from: D + 3600, to: D + 3 * 3600 },
      { level: 'minute', from: D + 3 * 3600, to: D + 3 * 3600 + 60 },
    ]);
    // Days from a half hour (UTC+5:30 midnights): the hour holding each day's edge is read by minute.
    expect(splitRange(D + 1800, D + 3 * 86_400 + 1800, { anchor: D + 1800, size: 86_400 })).toEqual([
      { level: 'minute', from: D + 1800, to: D + 3600 },
      { level: 'hour', from: D + 3600, to: D + 86_400 },
      { level: 'minute', from: D + 86_400, to: D + 86_400 + 3600 },
      { level: 'hour', from: D + 86_400 + 3600, to: D + 2 * 86_400 },
      { level: 'minute', from: D + 2 * 86_400, to: D + 2 * 86_400 + 3600 },
      { level: 'hour', from: D + 2 * 86_400 + 3600, to: D + 3 * 86_400 },
      { level: 'minute', from: D + 3 * 86_400, to: D + 3 * 86_400 + 1800 },
    ]);
    expect(splitRange(D + 1800, D + 86_400, { anchor: D + 1800, size: 3600 })).toEqual([{ level: 'minute', from: D + 1800, to: D + 86_400 }]);
    expect(splitRange(D, D + 7200, { anchor: D, size: 60 })).toEqual([{ level: 'minute', from: D, to: D + 7200 }]);
  });

  test('writes through the retrieval engine upserts (update triggers) keep rollups equal to the minute rows', async () => {
    const org = await freshOrganization('upserts');
    const collection = { organizationId: org, collectionId: 'c1', collectionName: 'one' };
    for (let i = 0; i < 3; i += 1) {
      await addDocumentEvent(h.database.db, collection, 'added', { fileBytes: 10 });
      // PostgreSQL appends the event; folded one at a time, the second and third are upserts.
      await foldDocumentUsage(h.database.db);
    }
    const now = Math.floor(Date.now() / 1000);
    const hourStart = now - (now % 3600);
    const viaHours = await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { start_time: hourStart - 86_400 * 2, end_time: hourStart + 86_400 * 2 - 1, aggregation_window: 'daily' });
    expect(viaHours.totals.docs).toEqual({ count: 3, bytes: 30 });
    await h.database.db.deleteFrom('document_usage').where('organization_id', '=', org).execute();
    const afterDelete = await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { start_time: hourStart - 86_400 * 2, end_time: hourStart + 86_400 * 2 - 1, aggregation_window: 'daily' });
    expect(afterDelete.totals.docs).toEqual({ count: 0, bytes: 0 });
  });

  test('any rows and any range: histories equal a plain sum of the minute rows', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            offset: fc.integer({ min: 0, max: 3 * 86_400 }),
            collection: fc.constantFrom('a', 'b'),
            eventType: fc.constantFrom('added', 'parsed', 'indexed') as fc.Arbitrary<DocumentRow['eventType']>,
            fileBytes: fc.integer({ min: 0, max: 1000 }),
            ocrPages: fc.integer({ min: 0, max: 3 }),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 0, max: 3 * 86_400 }),
        fc.integer({ min: 0, max: 3 * 86_400 }),
        fc.constantFrom('minutely', 'hourly', 'daily') as fc.Arbitrary<'minutely' | 'hourly' | 'daily'>,
        fc.boolean(),
        async (rows, a, b, window, alignStart) => {
          const org = await freshOrganization(`prop${(round += 1)}`);
          const seeded = rows.map((row) => ({ ...row, at: D + row.offset, organizationId: org }));
          await insertDocumentRows(h.database, seeded);
          let start = D + Math.min(a, b);
          if (alignStart) start -= start % 1800;
          const end = D + Math.max(a, b);
          const size = { minutely: 60, hourly: 3600, daily: 86_400 }[window];
          const history = await getDocumentUsageHistory(h.database, { organizationId: org, queryUsage: h.context.queryUsage }, { start_time: start, end_time: end, aggregation_window: window });
          const expected = new Map<number, number>();
          for (const row of seeded) {
            const minute = row.at - (row.at % 60);
            if (row.eventType !== 'added' || minute < start || minute > end) continue;
            const bucket = start + Math.floor((minute - start) / size) * size;
            expected.set(bucket, (expected.get(bucket) ?? 0) + row.fileBytes);
          }
          for (const entry of history.history) expect(entry.stats.docs.bytes).toBe(expected.get(entry.window_start) ?? 0);
          expect(history.totals.docs.bytes).toBe([...expected.values()].reduce((x, y) => x + y, 0));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('usage counters', () => {
  test('all time and the billing cycle (calendar month without a plan)', async () => {
    const org = await freshOrganization('counters');
    const now = new Date();
    const month = calendarMonth(now);
    const startOfMonth = month.start.getTime() / 1000;
    await insertDocumentRows(h.database, [
      { at: startOfMonth - 60, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 1, contentTokens: 2 },
      { at: startOfMonth, organizationId: org, collection: 'a', eventType: 'added', fileBytes: 10, contentTokens: 20 },
    ]);
    await insertQueryRows(h.database, [{ at: startOfMonth + 3601, organizationId: org, collection: 'a', queryBytes: 8 }]);
    await insertRerankRows(h.database, [{ at: startOfMonth - 86_400 * 40, organizationId: org, requestBytes: 3, tokens: 1 }]);
    const counters = await getUsageCounters(h.database, { organizationId: org, queryUsage: h.context.queryUsage });
    expect(counters.all_time.docs).toEqual({ count: 2, bytes: 11, billable_units: 22 });
    expect(counters.billing_cycle.docs).toEqual({ count: 1, bytes: 10, billable_units: 20 });
    expect(counters.billing_cycle.queries).toEqual({ count: 1, bytes: 8, billable_units: 1 });
    expect(counters.all_time.ocr).toEqual({ count: 0, bytes: 0, billable_units: 0 });
    const models = await getModelsUsageCounters(h.database, { organizationId: org, queryUsage: h.context.queryUsage });
    expect(models.all_time.rerank).toEqual({ count: 1, bytes: 3, billable_units: 1 });
    expect(models.billing_cycle.rerank).toEqual({ count: 0, bytes: 0, billable_units: 0 });
  });

  test('with a plan, the billing cycle is the current subscription period (here the free trial)', async () => {
    const org = await freshOrganization('subscribed');
    const now = Math.floor(Date.now() / 1000);
    const trialStart = now - 3 * 86_400 - 1234;
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    await h.database.db
      .insertInto('subscriptions')
      .values({
        organization_id: org,
        subscription_type: 'starter',
        provider: 'local',
        started_at: iso(trialStart),
        trial_end: iso(trialStart + 14 * 86_400),
        billing_anchor: iso(trialStart + 14 * 86_400),
        cancel_at: null,
        ended_at: null,
        trial_used: 1,
        stripe_customer_id: null,
        stripe_subscription_id: null,
        updated_at: iso(trialStart),
      })
      .execute();
    await insertQueryRows(h.database, [
      { at: trialStart - 120, organizationId: org, collection: 'a', queryBytes: 1 },
      { at: trialStart + 60, organizationId: org, collection: 'a', queryBytes: 10 },
      { at: now, organizationId: org, collection: 'a', queryBytes: 100 },
    ]);
    const counters = await getUsageCounters(h.database, { organizationId: org, queryUsage: h.context.queryUsage });
    expect(counters.all_time.queries.bytes).toBe(111);
    expect(counters.billing_cycle.queries.bytes).toBe(110);
  });

  test('the calendar month runs from the first of the month to the first of the next (UTC)', () => {
    expect(calendarMonth(new Date('2026-12-31T23:59:59Z'))).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
  });
});
