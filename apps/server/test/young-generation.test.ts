import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { serverNodeFlags } from '../../../scripts/run-entry.mjs';

/**
 * The server's HTTP thread gets a large young generation (`npm start`'s flags), its threads V8's
 * default (memory.ts): ingestion threads that hold large documents keep the memory measured for them.
 */
test('under the flags `npm start` gives the server, only the thread that starts it grows a large young generation', () => {
  const fixture = fileURLToPath(new URL('./fixtures/young-generation.ts', import.meta.url));
  const { NODE_OPTIONS: _none, ...env } = process.env;
  const output = execFileSync(process.execPath, [...serverNodeFlags(env), '--import', 'tsx', fixture], { env, encoding: 'utf8' });
  const { main, thread } = JSON.parse(output) as { main: number; thread: number };
  expect(main).toBeGreaterThan(64); // two semi-spaces of up to 64 MB
  expect(thread).toBeLessThanOrEqual(32); // V8's default: two of 16
}, 60_000);
