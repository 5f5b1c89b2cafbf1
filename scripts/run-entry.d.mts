/** The V8 flags Sift's processes run with (run-entry.mjs). */
export function nodeFlags(env?: NodeJS.ProcessEnv): string[];
/** Runs `entry` (a TypeScript entry point) as this script's child; see run-entry.mjs. */
export function runEntry(entry: string): void;
