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
// The server runs as a child: a stop signal sent to this process (npm forwards SIGTERM and SIGINT
// to it; so do `kill`, systemd and `docker stop`) is passed on, so the server drains and exits
// rather than being left running without its parent.
const server = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
