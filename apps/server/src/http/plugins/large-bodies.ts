import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectGarbage } from '../../memory.ts';

/** A request body from this size on counts as large. */
const LARGE_BODY_BYTES = 8 * 1024 * 1024;
/**
 * Large bodies read, parsed and handled at once; the others wait their turn before being read.
 * One: ingestion takes large documents one at a time anyway, and a second body in memory took
 * concurrent large uploads to the server's 1.5 GB memory budget.
 */
const LARGE_BODIES_AT_ONCE = 1;

/**
 * Bounded memory under large uploads: a large document arrives as a JSON text, becomes a parsed
 * string and then bytes to store, several times its size in all while its request runs, so a few
 * at once would take the server past its memory budget. Requests announcing a large body wait for
 * the slot before their body is read (the rest stays in the socket), and free it when answered.
 */
export function limitLargeBodies(app: FastifyInstance): void {
  let free = LARGE_BODIES_AT_ONCE;
  const waiting: (() => void)[] = [];
  const holders = new WeakSet<FastifyRequest>();
  const release = (request: FastifyRequest) => {
    if (!holders.delete(request)) return;
    // The body answered: its garbage goes now, before the next large body is read, not when V8
    // next finds the heap full (uploads in a row would otherwise grow the heap by each one).
    collectGarbage();
    const next = waiting.shift();
    if (next) return next();
    free++;
  };
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (Number(request.headers['content-length'] ?? 0) < LARGE_BODY_BYTES) return payload;
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    holders.add(request);
    return payload;
  });
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));
}
