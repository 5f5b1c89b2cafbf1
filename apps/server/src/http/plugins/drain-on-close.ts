import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * On close, connections that carry no request go once the requests in flight have been
 * answered. Node's own close (and Fastify's `forceCloseConnections: 'idle'`) ends keep-alive
 * connections between requests, but not one a client opened and never used yet (HTTP clients
 * and load balancers open them ahead of need): the server then waited for the client's
 * headers timeout, and a stopping server was cut off by its 9.5 s limit. Requests in flight
 * still finish; a request counts as in flight until its response closes, however it ends.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  const inFlight = new Set<FastifyRequest>();
  let closing = false;
  const closeWhenDrained = () => {
    if (closing && inFlight.size === 0) app.server.closeAllConnections();
  };
  app.addHook('onRequest', async (request, reply) => {
    inFlight.add(request);
    // The response's 'close' comes however a request ends: answered, or its client gone while it
    // was worked on (then neither onResponse nor onRequestAbort may come, and a request counted
    // as in flight for ever would make every shutdown run into the 9.5 s limit).
    reply.raw.once('close', () => {
      inFlight.delete(request);
      closeWhenDrained();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    closeWhenDrained();
  });
}
