import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseBusy } from '../../db/contention.ts';
import { DomainError } from '../../domain/errors.ts';

/** Seconds a client is asked to wait when the database was too busy to take its request. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The one place failures become HTTP answers: `{"detail": ...}` with the right status, never a
 * stack trace. Provider API (/v1) validation errors keep the list shape its OpenAPI description
 * gives (HTTPValidationError); dashboard calls get one readable sentence.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(error.status).headers(error.headers).send({ detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const issues = error.validation.map((issue) => ({
        loc: [where, ...issue.instancePath.split('/').filter(Boolean)],
        msg: issue.message,
        type: issue.params?.issue?.code ?? 'invalid',
      }));
      const detail = request.url.startsWith('/v1/')
        ? issues
        : issues.map((issue) => `${issue.loc.slice(1).join('.') || where}: ${issue.msg}`).join('; ');
      return reply.status(422).send({ detail });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, url: request.url }, 'response did not match its contract');
      return reply.status(500).send({ detail: 'Internal server error' });
    }
    if (isDatabaseBusy(error)) {
      // Contention, not a fault: the request waited its bounded time for the database's lock.
      // The official SDK retries 503 after `retry-after`.
      request.log.warn('database busy: answered 503');
      return reply.status(503).header('retry-after', String(BUSY_RETRY_AFTER_SECONDS)).send({ detail: 'The server is busy. Please retry shortly.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ detail: 'Internal server error' });
    }
    return reply.status(status).send({ detail: error.message });
  });

  app.setNotFoundHandler((request, reply) => reply.status(404).send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}` }));
}
