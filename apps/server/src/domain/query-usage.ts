import { beforeDestroy } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { addQueryEvents, type CollectionRef, minuteWindow, type QueryCounters, type QueryType } from './usage-events.ts';

/**
 * Query usage events, added up in memory and written once a second in one transaction.
 * A query writes nothing else, so unlike document events there is no action's transaction to
 * join; writing each event inline cost a large share of a short query's time and made every search
 * wait for the write lock while ingestion held it. Each event keeps the minute it happened in.
 * Reads of usage flush first (see usage.ts), so this process always sees its own queries; a
 * crash loses at most the last second of query counts. A write that fails is retried with the
 * next flush.
 */

interface Pending {
  collection: CollectionRef;
  queryType: QueryType;
  windowStart: number;
  count: number;
  counters: QueryCounters;
}

const FLUSH_AFTER_MS = 1000;

/** One server's buffer of query usage (its context owns it and hands it to the services on the actors). */
export class QueryUsage {
  readonly #pending = new Map<string, Pending>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(readonly database: Database) {
    // Nothing counted is dropped on a clean shutdown.
    beforeDestroy(database, () => this.flush());
  }

  record(collection: CollectionRef, queryType: QueryType, counters: QueryCounters): void {
    this.#add({ collection, queryType, windowStart: minuteWindow(), count: 1, counters });
  }

  /** Writes every pending event now (usage reads, shutdown, the timer). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const events = [...this.#pending.values()];
    this.#pending.clear();
    // One flush at a time, in order, so a read that flushes also waits for one under way.
    this.#flushing = this.#flushing.then(() =>
      write(this.database, events).catch(() => {
        // The database refused (busy, unreachable): keep the events for the next flush.
        for (const event of events) this.#add(event);
      }),
    );
    return this.#flushing;
  }

  #add(event: Pending): void {
    const key = `${event.collection.collectionId}|${event.queryType}|${event.windowStart}`;
    const pending = this.#pending.get(key);
    if (pending) {
      pending.count += event.count;
      for (const name of Object.keys(event.counters) as (keyof QueryCounters)[]) pending.counters[name] += event.counters[name];
    } else {
      this.#pending.set(key, { ...event, counters: { ...event.counters } });
    }
    this.#timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS).unref();
  }
}

async function write(database: Database, events: Pending[]): Promise<void> {
  if (events.length === 0) return;
  await database.db.transaction().execute(async (trx) => {
    // An organization deleted meanwhile took its usage with it: its events have nowhere to go.
    const organizationIds = [...new Set(events.map((event) => event.collection.organizationId))];
    const existing = await trx.selectFrom('organizations').select('id').where('id', 'in', organizationIds).execute();
    const live = new Set(existing.map((row) => row.id));
    for (const event of events) {
      if (!live.has(event.collection.organizationId)) continue;
      await addQueryEvents(trx, event.collection, event.queryType, event.windowStart, event.count, event.counters);
    }
  });
}
