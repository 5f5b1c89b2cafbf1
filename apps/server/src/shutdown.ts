/**
 * The last resort of a graceful shutdown: whatever still runs after `ms` (a request that does
 * not end, a stuck parse) is cut off, so the process exits within an orchestrator's grace period.
 * What it held goes back to the queue when its lease runs out.
 */
export function exitWithin(ms: number, log: { error(message: string): void }): void {
  setTimeout(() => {
    log.error(`shutdown took longer than ${ms} ms: exiting now`);
    process.exit(1);
  }, ms).unref();
}
