import type { FastifyRequest } from 'fastify';

/**
 * What the request log keeps of a request. URLs can carry credentials: signed file and page-image
 * links (`?token=`), invites (`?invite=`) and local checkout ids (`/billing/checkout/<id>`); they
 * are replaced by `[redacted]` before anything is written. Parameter names and paths are compared
 * decoded, as the router and the query parser read them: `?%74oken=` is `token`. Authorization
 * headers never reach the log (the serializer below does not copy headers).
 */
const SECRET_QUERY_PARAMETERS = new Set(['token', 'invite', 'session']);
const SECRET_PATH = /^(\/billing\/checkout\/)[^/]+/;

/** Percent-decoded (and `+` as a space, in a query), or the text itself when it is not valid encoding. */
const decoded = (text: string, plusIsSpace = false): string => {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
};

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_QUERY_PARAMETERS.has(decoded(name, true).trim().toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
}

export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  const decodedPath = decoded(path);
  const safePath = SECRET_PATH.test(decodedPath) ? decodedPath.replace(SECRET_PATH, '$1[redacted]') : path;
  return question === -1 ? safePath : `${safePath}?${redactQuery(url.slice(question + 1))}`;
}

export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
};
