import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { BODY_LIMIT_BYTES } from '@sift/contracts';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { recordRequestMetrics } from './metrics.ts';
import { watchOutages } from './outages.ts';
import { documentedErrors, registerErrorHandling } from './plugins/errors.ts';
import { requestLogSerializers } from './plugins/request-log.ts';
import { limitLargeBodies } from './plugins/large-bodies.ts';
import { refuseMalformedInput } from './plugins/well-formed-input.ts';
import { closeUnusedConnectionsOnClose } from './plugins/drain-on-close.ts';
import { requireApiKey } from './plugins/api-key-auth.ts';
import { requireSession } from './plugins/session-auth.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { authRoutes } from './routes/auth.ts';
import { documentFileRoutes } from './routes/document-file.ts';
import { billingCheckoutRoutes } from './routes/billing-checkout.ts';
import { billingRoutes } from './routes/billing.ts';
import { provideDashboardActor } from './routes/dashboard-actor.ts';
import { memberRoutes } from './routes/members.ts';
import { operationsRoutes } from './routes/operations.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { adminRoutes } from './routes/provider/admin.ts';
import { providerRoutes } from './routes/provider/index.ts';
import { userRoutes } from './routes/users.ts';
import { webRoutes } from './routes/web.ts';

/** The whole HTTP surface: dashboard API, provider API (/v1), sign-in, API reference and the dashboard. */
export async function buildApp(context: AppContext, options: FastifyServerOptions & { logStream?: DestinationStream } = {}) {
  const { logStream, ...fastifyOptions } = options;
  const app = Fastify({
    logger: {
      level: context.config.logLevel,
      serializers: requestLogSerializers,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: true,
    // On close (SIGTERM) idle keep-alive connections end at once; requests in flight finish.
    forceCloseConnections: 'idle',
    ...fastifyOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  parseJsonBodies(app);
  const outages = watchOutages(app.log, {
    database: () => sql`select 1`.execute(context.database.db),
    ...(context.objectStore ? { 'object store': context.objectStore.check } : {}),
  });
  app.decorate('outages', outages);
  registerErrorHandling(app);
  recordRequestMetrics(app, context.metrics);
  app.addHook('onClose', async () => {
    outages.close();
    context.objectStore?.close();
    await context.limits.close();
    await context.files.close();
    context.engine.parser.close();
  });
  // Every 4xx a route can give is in the OpenAPI description (see plugins/errors.ts).
  app.addHook('onRoute', documentedErrors);
  limitLargeBodies(app);
  refuseMalformedInput(app);
  closeUnusedConnectionsOnClose(app);
  // The dashboard's local dev servers (Vite on 5173, preview on 4173) call the provider API here.
  await app.register(cors, { origin: [/^http:\/\/(localhost|127\.0\.0\.1):(5173|4173)$/], maxAge: 600 });

  await registerApiReference(app);

  // Probes and metrics: before the dashboard's fallback page, outside every auth scope.
  await app.register(operationsRoutes, context);
  await app.register(authRoutes, context);
  await app.register(documentFileRoutes, context);
  // Billing pages and the Stripe webhook: reached without a session.
  await app.register(billingCheckoutRoutes, context);
  // Dashboard API: every route here needs a session token.
  await app.register(async (scope) => {
    requireSession(scope, context.keyring, context.database);
    provideDashboardActor(scope, context);
    await scope.register(userRoutes, context);
    await scope.register(organizationRoutes, context);
    await scope.register(memberRoutes, context);
    await scope.register(apiKeyRoutes, context);
    await scope.register(billingRoutes, context);
  });
  // Admin API: only the installation's admin key (a scope of its own: no API key is asked).
  await app.register(adminRoutes, { ...context, prefix: '/v1' });
  // Provider API: every route here needs an API key.
  await app.register(
    async (scope) => {
      requireApiKey(scope, context.database, context.verifiedApiKeys);
      await scope.register(providerRoutes, context);
    },
    { prefix: '/v1' },
  );
  await app.register(webRoutes);
  return app;
}

/** JSON bodies, an empty one read as no parameters. */
function parseJsonBodies(app: FastifyInstance): void {
  // The SDK sends `content-type: application/json` with an empty body for calls without parameters.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '' || body === undefined) return done(null, {});
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('Request body is not valid JSON.'), { statusCode: 400 }), undefined);
    }
  });
}

/** The OpenAPI description (/openapi.json) and its pages (/docs). */
async function registerApiReference(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Sift API', version: '1.0.0', description: 'Dashboard API (session token) and provider API under /v1 (API key).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
