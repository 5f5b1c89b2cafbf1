import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

export const webDistDir = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

/** API prefixes never fall back to the dashboard's index.html. */
const API_PREFIXES = ['/api/', '/v1/', '/auth/', '/billing/', '/docs', '/openapi.json', '/health', '/metrics'];

/** Serves the built dashboard; any other GET outside the APIs gets index.html so the SPA can route it. */
export const webRoutes: FastifyPluginAsync = async (app) => {
  if (!existsSync(webDistDir)) {
    app.log.warn(`no built dashboard at ${webDistDir}; run "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false });
  app.get('/assets/*', (request, reply) => reply.sendFile(request.url.split('?')[0]!.slice(1), { maxAge: '1y', immutable: true }));
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      return reply.status(404).send({ detail: `Not Found: GET ${path}` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
};
