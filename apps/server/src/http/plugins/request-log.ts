import type { FastifyRequest } from 'fastify';

/**
 * What the request log keeps of a request. URLs can carry credentials: signed file and page-image
 * links (`?token=`), invites (`?invite=`) and local checkout ids (`/billing/checkout/<id>`); they
 * are replaced by `[redacted]` before anything is written. Authorization headers never reach the
 * log (the serializer below does not copy headers).
 */
const SECRET_QUERY_PARAMETER = /([?&](?:token|invite|session)=)[^&#]*/gi;
const SECRET_PATH = /^(\/billing\/checkout\/)[^/?#]+/;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]').replace(SECRET_QUERY_PARAMETER, '$1[redacted]');
}

export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
};
