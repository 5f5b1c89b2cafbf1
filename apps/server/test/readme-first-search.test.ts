import { readFileSync } from 'node:fs';
import ZeroEntropy from 'zeroentropy';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * The README's first search, run as written with the official SDK against a listening server
 * (only its placeholder key and address swapped for the test's): what a new user tries first.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
let baseURL: string;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  baseURL = `${await h.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

/** The README's TypeScript example under "A first search", its import left to the caller. */
function firstSearchExample(): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const example = /## A first search[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!example) throw new Error('README.md has no TypeScript example under "A first search"');
  return example.replace("import ZeroEntropy from 'zeroentropy';", '');
}

test("the README's first search runs as written and prints the matching document first, with a score that reads as one", async () => {
  const example = firstSearchExample();
  expect(example).toContain("apiKey: 'sift_…'");
  expect(example).toContain("baseURL: 'http://localhost:8000/v1'");
  const runnable = example.replace("'sift_…'", JSON.stringify(f.keyA)).replace("'http://localhost:8000/v1'", JSON.stringify(baseURL));
  const printed: unknown[][] = [];
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...parameters: string[]) => (...values: unknown[]) => Promise<void>;
  await new AsyncFunction('ZeroEntropy', 'console', runnable)(ZeroEntropy, { log: (...values: unknown[]) => printed.push(values) });

  expect(printed.length).toBeGreaterThan(0);
  const [score, path, content] = printed[0]!;
  expect(path).toBe('travel.txt');
  expect(content).toBe('Book flights through the travel desk at least two weeks ahead.');
  expect(score).toBeGreaterThan(0.01);
  expect(score).toBeLessThan(1);
});
