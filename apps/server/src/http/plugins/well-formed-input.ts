import { JSON_MAX_DEPTH, noLoneSurrogates } from '@sift/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationFailure } from './errors.ts';

type Part = 'body' | 'querystring' | 'params';

/** A value met in the walk: where it sits (its parent and key), to name it when it is refused. */
interface Visit {
  value: unknown;
  depth: number;
  key: string;
  parent: Visit | null;
}

const pathOf = (visit: Visit): string[] => {
  const path: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
};

/** Why a string is refused: a NUL (PostgreSQL cannot store one) or a lone surrogate (not Unicode, not UTF-8). */
const stringFault = (text: string): string | null =>
  text.includes('\u0000') ? 'must not contain NUL characters' : !noLoneSurrogates(text) ? 'must be well-formed Unicode (no lone surrogates)' : null;

const isPlainContainer = (value: unknown): value is object => {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  // Parsed JSON, a query or path parameters (Fastify's have a prototype of their own, itself
  // without one); not a Buffer (raw bodies such as the Stripe webhook's) or a stream.
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
};

/**
 * The first fault of a parsed input, walked without recursion: a string (or an object key) with
 * NUL or a lone surrogate, or nesting deeper than JSON_MAX_DEPTH. Null when it is well formed.
 */
export function inputFault(value: unknown): { path: string[]; message: string } | null {
  const stack: Visit[] = [{ value, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (typeof visit.value === 'string') {
      const message = stringFault(visit.value);
      if (message) return { path: pathOf(visit), message };
      continue;
    }
    if (!isPlainContainer(visit.value)) continue;
    if (visit.depth >= JSON_MAX_DEPTH) return { path: pathOf(visit), message: `must not nest more than ${JSON_MAX_DEPTH} levels of objects and arrays` };
    for (const [key, child] of Object.entries(visit.value)) {
      const keyFault = stringFault(key);
      if (keyFault) return { path: [...pathOf(visit), key], message: `names ${keyFault}` };
      stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return null;
}

/**
 * Every route, one rule, before its own validation: the strings of a body, query and path are
 * well-formed Unicode without NUL, and no input nests past JSON_MAX_DEPTH. Refused with 422 in
 * the shape of the route's validation errors. A route's schema need not repeat it, and nothing
 * reaches a recursive parser or the database (PostgreSQL refuses NUL in text with an error).
 */
export function refuseMalformedInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest, reply) => {
    const parts: [Part, unknown][] = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ];
    for (const [part, value] of parts) {
      const fault = inputFault(value);
      if (fault) return validationFailure(request, reply, [{ loc: [part, ...fault.path], msg: fault.message, type: 'value_error' }]);
    }
  });
}
