import { BODY_LIMIT_BYTES, ErrorBody } from '@sift/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseBusy } from '../../db/contention.ts';
import { DEPENDENCY_RETRY_AFTER_SECONDS, dependencyUnavailable } from '../../dependencies.ts';
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
      return validationFailure(request, reply, issues);
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
    const outage = dependencyUnavailable(error);
    if (outage) {
      // Not this request's fault, and not one log line per request: the outage logs its start and end (outages.ts).
      app.outages.report(outage);
      return reply
        .status(503)
        .header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS))
        .send({ detail: `The ${outage.dependency} is unreachable at the moment; this server answers again as soon as it is back. Please retry shortly.` });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply.status(413).send({ detail: bodyTooLarge });
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ detail: 'Internal server error' });
    }
    return reply.status(status).send({ detail: error.message });
  });

  app.setNotFoundHandler((request, reply) => reply.status(404).send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}` }));
}

/** One failing check of an input: where (`body`, `querystring` or `params`, then the path in it), what. */
export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

/**
 * 422 for input that breaks the contract: the provider API (/v1) keeps the list shape of its
 * OpenAPI description (HTTPValidationError); dashboard calls get one readable sentence.
 */
export function validationFailure(request: FastifyRequest, reply: FastifyReply, issues: ValidationIssue[]): FastifyReply {
  const detail = request.url.startsWith('/v1/')
    ? issues
    : issues.map((issue) => `${issue.loc.slice(1).join('.') || issue.loc[0]}: ${issue.msg}`).join('; ');
  return reply.status(422).send({ detail });
}

const bodyTooLarge = `Request body is too large: the limit is ${BODY_LIMIT_BYTES} bytes (${BODY_LIMIT_BYTES / 1024 / 1024} MiB).`;

const errorDescriptions = {
  400: 'Bad Request: the request cannot apply to the current state',
  401: 'Unauthorized: no credential, or not a valid one',
  403: 'Forbidden: the credential may not do this',
  404: 'Not Found',
  409: 'Conflict: it already exists',
  413: `Payload Too Large: the body exceeds ${BODY_LIMIT_BYTES} bytes`,
  422: 'Validation Error: the body, query or parameters break the contract',
  429: 'Too Many Requests: over the byte budget; retry after `retry-after` seconds',
} as const;
export type ErrorStatus = keyof typeof errorDescriptions;

/** The OpenAPI responses of these error statuses, all `{"detail": ...}`. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody.describe(errorDescriptions[status])]));
}

/**
 * The dashboard API's own refusals (spec §5–6): a non-member gets 404, a member who may not act
 * 403, a plan already held or none to cancel 409. Provider routes state theirs beside the route.
 */
const dashboardErrors: [RegExp, ErrorStatus[]][] = [
  [/^\/api\/users\/get-user$/, [404]],
  [/^\/api\/organizations\/add-organization$/, []],
  [/^\/api\/organizations\//, [403, 404]],
  [/^\/billing\/status$/, [404]],
  [/^\/billing\/(subscribe|pause)$/, [403, 404, 409]],
];

/**
 * onRoute: adds the errors every route of a kind can give to its OpenAPI responses, so the
 * description lists every 4xx; provider routes state their own (400, 403, 404, 409, 429) themselves.
 * 422 for any input, 413 for a body, 401 behind a credential (session, API key, admin key).
 */
export function documentedErrors(route: RouteOptions): void {
  const schema = route.schema;
  if (!schema || schema.hide) return;
  const statuses: ErrorStatus[] = [];
  if (schema.body || schema.querystring || schema.params) statuses.push(422);
  if (schema.body) statuses.push(413);
  const publicLink = /^\/v1\/documents\/get-(document|page-image)$/.test(route.url);
  const dashboard = route.url.startsWith('/api/') || /^\/billing\/(status|subscribe|pause)$/.test(route.url);
  if ((route.url.startsWith('/v1/') && !publicLink) || dashboard) statuses.push(401);
  if (dashboard) statuses.push(...(dashboardErrors.find(([pattern]) => pattern.test(route.url))?.[1] ?? []));
  schema.response = { ...errorResponses(...statuses), ...(schema.response as object | undefined) };
}
