// npm start: build the dashboard when its build is missing or older than its sources, then serve.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runEntry, serverNodeFlags } from './run-entry.mjs';

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
runEntry('apps/server/src/main.ts', serverNodeFlags());
