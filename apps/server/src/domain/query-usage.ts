import type { Database } from '../db/schema.ts';
import { addQueryEvent, type CollectionRef, minuteWindow } from './usage-events.ts';

/**
 * Query usage events, added up in memory and written once a second in one transaction.
 * A query writes nothing else, so unlike document events there is no action's transaction to
 * join; writing each event inline cost a third of a short query's time and made every search
 * wait for the write lock while ingestion held it. Each event keeps the minute it happened in.
 * Reads of usage flush first (see usage.ts), so this process always sees its own queries; a
 * crash loses at most the last second of query counts.
 */
export type QueryType = 'fine' | 'coarse' | 'pages' | 'documents';

export interface QueryCounters {
  queryBytes: number;
  queriedBytes: number;
  queryTokens: number;
  results: number;
  timeMs: number;
}

interface Pending {
  collection: CollectionRef;
  queryType: QueryType;
  windowStart: number;
  count: number;
  counters: QueryCounters;
}

const FLUSH_AFTER_MS = 1000;

interface QueryUsageBuffer {
  pending: Map<string, Pending>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void>;
}

const buffers = new WeakMap<Database, QueryUsageBuffer>();

function bufferOf(database: Database): QueryUsageBuffer {
  let buffer = buffers.get(database);
  if (!buffer) {
    buffer = { pending: new Map(), timer: null, flushing: Promise.resolve() };
    buffers.set(database, buffer);
    // Nothing counted is dropped on a clean shutdown.
    const destroy = database.destroy.bind(database);
    database.destroy = async () => {
      await flushQueryUsage(database);
      await destroy();
    };
  }
  return buffer;
}

export function recordQueryUsage(database: Database, collection: CollectionRef, queryType: QueryType, counters: QueryCounters): void {
  const buffer = bufferOf(database);
  const windowStart = minuteWindow();
  const key = `${collection.collectionId}|${queryType}|${windowStart}`;
  const pending = buffer.pending.get(key);
  if (pending) {
    pending.count++;
    for (const name of Object.keys(counters) as (keyof QueryCounters)[]) pending.counters[name] += counters[name];
  } else {
    buffer.pending.set(key, { collection, queryType, windowStart, count: 1, counters: { ...counters } });
  }
  buffer.timer ??= setTimeout(() => void flushQueryUsage(database), FLUSH_AFTER_MS).unref();
}

/** Writes every pending event now (usage reads, shutdown, the timer). */
export function flushQueryUsage(database: Database): Promise<void> {
  const buffer = buffers.get(database);
  if (!buffer) return Promise.resolve();
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  const events = [...buffer.pending.values()];
  buffer.pending.clear();
  // One flush at a time, in order, so a read that flushes also waits for one under way.
  buffer.flushing = buffer.flushing.then(() => write(database, events));
  return buffer.flushing;
}

async function write(database: Database, events: Pending[]): Promise<void> {
  if (events.length === 0) return;
  const insert = (db: Database['db'], event: Pending) =>
    addQueryEvent(db, event.collection, event.queryType, { ...event.counters, count: event.count, windowStart: event.windowStart });
  try {
    await database.db.transaction().execute(async (trx) => {
      for (const event of events) await insert(trx, event);
    });
  } catch {
    // An organization deleted meanwhile takes its usage with it: write the others one by one.
    for (const event of events) await insert(database.db, event).catch(() => {});
  }
}
