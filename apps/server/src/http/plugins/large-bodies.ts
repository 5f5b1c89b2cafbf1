import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectGarbage } from '../../memory.ts';

/** A request body from this size on counts as large. */
const LARGE_BODY_BYTES = 8 * 1024 * 1024;
/**
 * Large bodies read, parsed and handled at once; the others wait their turn before being read.
 * One: ingestion takes large documents one at a time anyway, and a second body in memory brought
 * eight concurrent 60 MB uploads to the 1.5 GB RSS limit (1,493 and 1,554 MB in two load benchmarks).
 */
const LARGE_BODIES_AT_ONCE = 1;

/**
 * Bounded memory under large uploads: a 60 MB document arrives as a 60 MB JSON text, becomes a
 * parsed string and then bytes to store, a few hundred MB in all while its request runs. Eight at
 * once took the server past 2.4 GB. Requests announcing a large body wait for the slot
 * before their body is read (the rest stays in the socket), and free it when answered.
 */
export function limitLargeBodies(app: FastifyInstance): void {
  let free = LARGE_BODIES_AT_ONCE;
  const waiting: (() => void)[] = [];
  const holders = new WeakSet<FastifyRequest>();
  const release = (request: FastifyRequest) => {
    if (!holders.delete(request)) return;
    // The body answered: its hundreds of MB of garbage go now, before the next large body is
    // read, not when V8 next finds the heap full (eight uploads in a row grew it by each one).
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
