import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's CPU priority to `nice` (0-19; higher yields more). On Linux a
 * priority set by thread id applies to that thread alone, and /proc/thread-self names it; where
 * either is missing the thread keeps its priority, and ingestion its former share.
 * Returns whether the priority was set.
 */
export function lowerThisThreadsPriority(nice: number): boolean {
  if (nice === 0) return true;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId)) return false;
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
