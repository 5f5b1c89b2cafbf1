import { setTimeout as sleep } from 'node:timers/promises';

/** How long a write waits for another connection's lock before its SQLITE_BUSY is thrown. */
export const LOCK_WAIT_MS = 30_000;

/**
 * Runs a SQLite write, again while another connection holds the lock it needs (SQLITE_BUSY), for
 * up to `waitMs`. The connection must not wait in SQLite's own busy handler (busy timeout 0): that
 * wait blocks the thread, and every request it serves. Here the waits happen between event-loop
 * turns. It also covers what the busy handler cannot: a transaction that read a file another
 * writer changed since fails at once with SQLITE_BUSY, whatever the timeout.
 */
export async function whenUnlocked<T>(write: () => T | Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!String((error as { code?: string }).code).startsWith('SQLITE_BUSY') || Date.now() - started > waitMs) throw error;
      await sleep(1);
    }
  }
}
