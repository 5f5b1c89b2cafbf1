import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { beat, forget } from '../../db/worker-heartbeats.ts';
import type { Database } from '../../db/schema.ts';

/** How often a serving worker says so; readiness counts a worker live for four beats. */
export const HEARTBEAT_MS = 5000;
export const WORKER_LIVE_MS = 4 * HEARTBEAT_MS;

/**
 * Says every few seconds that this process serves the queue (see db/worker-heartbeats.ts), and
 * takes it back when it stops.
 */
export function startHeartbeat(database: Database): { stop(): Promise<void> } {
  const worker = { id: randomUUID(), host: hostname(), pid: process.pid };
  const send = () => beat(database, worker).catch(() => {}); // the database is away: readiness will say so
  void send();
  const timer = setInterval(send, HEARTBEAT_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await forget(database, worker.id).catch(() => {});
    },
  };
}
