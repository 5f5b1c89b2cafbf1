import { GetDocumentQuery } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openDocumentFile } from '../../domain/documents.ts';
import { fileMessages } from '../../domain/file-store.ts';
import { NotFound } from '../../domain/errors.ts';
import { verifyFileToken } from '../../domain/file-links.ts';
import type { AppContext } from '../context.ts';

/**
 * `GET /v1/documents/get-document?token=`: the raw file behind a `file_url`. A browser opens it
 * directly, so it sits outside the API-key scope; the signed, expiring token is the credential.
 * Files are served sandboxed (no script runs on our origin from an uploaded HTML file).
 */
export const documentFileRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, keyring, files }) => {
  app.get(
    '/v1/documents/get-document',
    { schema: { tags: ['Documents'], querystring: GetDocumentQuery } },
    async (request, reply) => {
      const documentId = await verifyFileToken(keyring, request.query.token);
      const file = await openDocumentFile(database, documentId);
      const body = await files.stream(file.fileHash).catch(() => {
        throw new NotFound(fileMessages.missing);
      });
      return reply
        .header('content-type', file.contentType)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('content-security-policy', 'sandbox')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
};
