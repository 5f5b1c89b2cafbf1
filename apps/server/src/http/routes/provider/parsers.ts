import { ParseDocumentRequest, ParseDocumentResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parseDocument } from '../../../domain/parse-document.ts';
import type { AppContext } from '../../context.ts';

/** /v1/parsers: the ingestion parsers on their own; nothing is stored, so read_only keys may call it. */
export const parserRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, engine }) => {
  app.post(
    '/parsers/parse-document',
    { schema: { tags: ['Parsers'], body: ParseDocumentRequest, response: { 200: ParseDocumentResponse } } },
    async (request) => parseDocument(database, engine, request.actor, request.body),
  );
};
