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
const stop = (signal = 'SIGTERM') =>
  children.forEach((child) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // That group has ended already.
    }
  });
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
children.forEach((child) =>
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
whenOrphanedUnderNpm(() => stop());
