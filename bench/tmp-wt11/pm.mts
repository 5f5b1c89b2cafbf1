import { Worker } from 'node:worker_threads';
const w = new Worker(`const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, rows: [] }));`, { eval: true });
w.unref();
let resolve: () => void = () => {};
w.on('message', () => resolve());
const text = 'x'.repeat(600);
for (const gap of [0, 1]) {
  const post: number[] = []; const total: number[] = [];
  for (let i = 0; i < 2000; i++) {
    if (gap) await new Promise((r) => setTimeout(r, gap));
    const t = performance.now();
    const done = new Promise<void>((r) => (resolve = r));
    w.postMessage({ id: i, file: '/tmp/x', text, parameters: ['a'], setup: undefined });
    post.push(performance.now() - t);
    await done;
    total.push(performance.now() - t);
  }
  post.sort((a, b) => a - b); total.sort((a, b) => a - b);
  console.log('gap', gap, 'postMessage call p50', post[1000]!.toFixed(4), 'p90', post[1800]!.toFixed(4), 'round trip p50', total[1000]!.toFixed(4));
}
process.exit(0);
