// npm run dev: the server on 8000 (restarting on change) and Vite on 5173 with hot reload.
import { spawn } from 'node:child_process';
import { whenOrphanedUnderNpm } from './run-entry.mjs';

// Each command in a process group of its own, stopped as a group: npx and npm run theirs through
// `sh -c`, which passes no signal on, so a signal to npx or npm alone left Vite and the server
// running. A group that is not the terminal's must not read it (Vite would be stopped by SIGTTIN),
// so they get no input: Vite's keyboard shortcuts are off.
const start = (command, args, env = process.env) => spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, detached: true });
const children = [
  start('npx', ['tsx', 'watch', 'apps/server/src/main.ts'], { ...process.env, PORT: process.env.PORT ?? '8000' }),
  start('npm', ['run', 'dev', '-w', 'apps/web']),
];
// Each group is signalled once when it is stopped for another's sake (a child that ended, npm
// gone): a second signal makes tsx watch SIGKILL the server mid-shutdown ("Force killing...").
// A signal sent to this script is passed on every time, so a second Ctrl-C still forces.
const signalled = new Set();
const signal = (child, name) => {
  signalled.add(child);
  try {
    process.kill(-child.pid, name);
  } catch {
    // That group has ended already.
  }
};
const stopAll = (name) => children.forEach((child) => signal(child, name));
const stopRest = () => children.forEach((child) => signalled.has(child) || signal(child, 'SIGTERM'));
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
children.forEach((child) =>
  // What the ended command left in its group goes too, unless that group was signalled already.
  child.on('exit', (code) => {
    stopRest();
    process.exitCode = code ?? 0;
  }),
);
whenOrphanedUnderNpm(stopRest);
