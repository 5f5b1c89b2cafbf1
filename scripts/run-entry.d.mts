/** The V8 flags the server runs with (run-entry.mjs). */
export function serverNodeFlags(env?: NodeJS.ProcessEnv): string[];
/** Runs `entry` (a TypeScript entry point) with `nodeFlags` as this script's child; see run-entry.mjs. */
export function runEntry(entry: string, nodeFlags?: string[]): void;
/** Calls `stop` once npm, which started this script, is gone; see run-entry.mjs. */
export function whenOrphanedUnderNpm(stop: () => void): void;
