import { type Kysely, sql } from 'kysely';
import type { DB, Dialect, GroupedTransaction, GroupSums } from './schema.ts';

/**
 * Group commit for SQLite's one writer: short write transactions that arrive together (uploads
 * from a client sending several at once) run in one database transaction, each inside a savepoint
 * of its own, so a single commit (one write of the pages they share to the log) serves them all.
 * A unit that throws is rolled back to its savepoint alone and rejects alone; every promise
 * settles only once the transaction holding its unit has committed or failed. PostgreSQL, with
 * a pool of connections, runs each unit in a transaction of its own.
 *
 * Made once per database handle (its `inGroupedTransaction`): on SQLite the handle's queue of units.
 */
export function groupedTransactions(db: Kysely<DB>, dialect: Dialect): GroupedTransaction {
  if (dialect === 'sqlite') {
    const queue = unitQueue(db);
    return <T>(work: (trx: Kysely<DB>, group: GroupSums) => Promise<T>) =>
      new Promise<T>((resolve, reject) => queue.add({ work, resolve: resolve as (value: unknown) => void, reject }));
  }
  return (work) =>
    db.transaction().execute(async (trx) => {
      const sums = groupSums();
      const unit = sums.unit();
      const value = await work(trx, unit);
      unit.keep();
      await sums.write(trx);
      return value;
    });
}

function groupSums() {
  const sums = new Map<string, { counters: Record<string, number>; write: (trx: Kysely<DB>, sums: Record<string, number>) => Promise<void> }>();
  return {
    /** The sums one unit adds to, merged only by `keep` (once the unit succeeded). */
    unit(): GroupSums & { keep(): void } {
      const staged: [string, Record<string, number>, (trx: Kysely<DB>, sums: Record<string, number>) => Promise<void>][] = [];
      return {
        add: (key, counters, write) => void staged.push([key, counters, write]),
        keep() {
          for (const [key, counters, write] of staged) {
            const sum = sums.get(key);
            if (!sum) sums.set(key, { counters: { ...counters }, write });
            else for (const [name, value] of Object.entries(counters)) sum.counters[name] = (sum.counters[name] ?? 0) + value;
          }
        },
      };
    },
    async write(trx: Kysely<DB>) {
      for (const { counters, write } of sums.values()) await write(trx, counters);
    },
  };
}

interface Unit {
  work: (trx: Kysely<DB>, group: GroupSums) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Units in one transaction at most: a long batch would hold the write lock too long. */
const MAX_UNITS = 64;

function unitQueue(db: Kysely<DB>): { add(unit: Unit): void } {
  let waiting: Unit[] = [];
  let draining = false;

  const runBatch = async (batch: Unit[]) => {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        const sums = groupSums();
        for (const unit of batch) {
          await sql`savepoint grouped_unit`.execute(trx);
          const unitSums = sums.unit();
          try {
            outcomes.push({ ok: true, value: await unit.work(trx, unitSums) });
            unitSums.keep();
          } catch (error) {
            await sql`rollback to grouped_unit`.execute(trx);
            outcomes.push({ ok: false, error });
          }
          await sql`release grouped_unit`.execute(trx);
        }
        await sums.write(trx);
      });
    } catch (error) {
      // Nothing of the batch was committed.
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  };

  // Units that arrive while a batch commits form the next batch.
  const drain = async () => {
    draining = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_UNITS);
      waiting = waiting.slice(MAX_UNITS);
      await runBatch(batch);
    }
    draining = false;
  };

  return {
    add(unit: Unit) {
      waiting.push(unit);
      // The first unit waits for the end of this event-loop turn, so units of the same turn join it.
      if (!draining && waiting.length === 1) setImmediate(() => void drain());
    },
  };
}
