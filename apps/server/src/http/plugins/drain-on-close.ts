import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * On close, connections that carry no request go once the requests in flight have been
 * answered. Node's own close (and Fastify's `forceCloseConnections: 'idle'`) ends keep-alive
 * connections between requests, but not one a client opened and never used yet (HTTP clients
 * and load balancers open them ahead of need): the server then waited for the client's
 * headers timeout, and a stopping server was cut off by its 9.5 s limit (seen after a heavy
 * benchmark). Requests in flight still finish.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  // A set, not a count: an aborted request may also end with onResponse.
  const inFlight = new Set<FastifyRequest>();
  let closing = false;
  const closeWhenDrained = () => {
    if (closing && inFlight.size === 0) app.server.closeAllConnections();
  };
  app.addHook('onRequest', async (request) => {
    inFlight.add(request);
  });
  const done = async (request: FastifyRequest) => {
    inFlight.delete(request);
    closeWhenDrained();
  };
  app.addHook('onResponse', done);
  app.addHook('onRequestAbort', done);
  app.addHook('preClose', async () => {
    closing = true;
    closeWhenDrained();
  });
}
