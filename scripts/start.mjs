// npm start: build the dashboard when its build is missing or older than its sources, then serve.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);

const built = 'apps/web/dist/index.html';
const sources = ['apps/web/src', 'apps/web/index.html', 'packages/contracts/src'];
const stale = !existsSync(built) || sources.some((path) => (statSync(path).isDirectory() ? newest(path) : statSync(path).mtimeMs) > statSync(built).mtimeMs);
const run = (args) => {
  const result = spawnSync(args[0], args.slice(1), { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
if (stale) run(['npm', 'run', 'build']);
// The server runs as a child: a stop signal sent to this process (`kill`, systemd, `docker stop`,
// a terminal's Ctrl-C) is passed on, so the server drains and exits rather than being left running
// without its parent.
const server = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
// `npm start` runs this script through `sh -c`, and Debian's sh (dash) neither replaces itself with
// it nor passes signals on: a SIGTERM to npm ends npm and the shell and leaves this script behind,
// adopted by another process. A parent that changed is the only sign of that; the server stops then too.
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  server.kill('SIGTERM');
}, 500);
orphaned.unref();
