// Runs one of Sift's entry points (the server or a worker) as this script's child, so that stopping
// this script stops it, the way `npm start` and `npm run worker` are stopped.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The V8 flags the server runs with. `--no-allocation-site-pretenuring`: under many concurrent
 * searches on PostgreSQL, V8 took the objects of a few allocation sites for long-lived (requests in
 * flight at each collection survive it) and allocated them in the old generation, where they died:
 * slow scavenges, frequent full collections and V8's helper threads kept busy, all for garbage.
 * SQLite's searches showed no such promotion, and run the same either way.
 * And a young generation of 64 MB semi-spaces for its HTTP thread
 * (V8's default is 16; the server gives its threads the default back, memory.ts). Almost all of a
 * request's garbage dies young, and a larger young generation collects it less often for the same
 * work, which leaves more of the thread to searches (`bench/fair-probe.ts`, ONLY_IDLE=1, measures
 * it). The worker (`npm run worker`) ingests on its main thread and keeps V8's default. An
 * operator's NODE_OPTIONS that sets the size wins.
 */
export function serverNodeFlags(env = process.env) {
  return ['--no-allocation-site-pretenuring', ...((env.NODE_OPTIONS ?? '').includes('--max-semi-space-size') ? [] : ['--max-semi-space-size=64'])];
}

/** Runs `entry` with `nodeFlags` as this script's child. */
export function runEntry(entry, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry], { stdio: 'inherit' });
  // A stop signal sent to this process (`kill`, systemd, `docker stop`, a terminal's Ctrl-C) is
  // passed on, so the child drains and exits rather than being left running without its parent.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  whenOrphanedUnderNpm(() => child.kill('SIGTERM'));
}

/**
 * Calls `stop` once this script's parent changes, when npm started it. npm runs a script through
 * `sh -c`, and Debian's sh (dash) neither replaces itself with it nor passes signals on: a SIGTERM
 * to npm ends npm and the shell and leaves the script behind, adopted by another process. A parent
 * that changed is the only sign of that. Only under npm (npm_lifecycle_event): run directly
 * (`nohup node scripts/start.mjs &`), a parent that exits is no reason to stop.
 */
export function whenOrphanedUnderNpm(stop) {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    stop();
  }, 500);
  orphaned.unref();
}
