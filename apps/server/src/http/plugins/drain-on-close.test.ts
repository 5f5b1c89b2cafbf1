import { connect } from 'node:net';
import Fastify from 'fastify';
import { expect, test } from 'vitest';
import { closeUnusedConnectionsOnClose } from './drain-on-close.ts';

// A stopping server closes once its requests in flight are over, however they end: answered, or
// their client gone (a load generator stopped mid-run left 71 such requests counted as in flight
// for ever, and every later shutdown ran into its 9.5 s limit).

const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), ms))]);

test('a server closes when the clients of its requests in flight went away, and an unused connection does not hold it', async () => {
  const app = Fastify();
  closeUnusedConnectionsOnClose(app);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const arrivedAll = new Promise<void>((resolve) => (arrived = resolve));
  let count = 0;
  app.post('/slow', async () => {
    if (++count === 3) arrived();
    await released;
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const body = '{}';
  const request = `POST /slow HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
  const sockets = Array.from({ length: 3 }, () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(request);
    return socket;
  });
  // A connection opened ahead of need, never used.
  const unused = connect(port, '127.0.0.1');
  unused.on('error', () => {});
  await arrivedAll;
  // The clients go while their requests are being worked on; the answers then meet closed sockets.
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closing = app.close();
  release();
  expect(await settlesWithin(closing, 5000)).toBe('closed');
  unused.destroy();
});
