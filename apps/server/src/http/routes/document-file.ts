import { GetDocumentQuery, GetPageImageQuery } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openDocumentFile } from '../../domain/documents.ts';
import { verifyFileToken, verifyPageImageToken } from '../../domain/file-links.ts';
import { NotFound } from '../../domain/errors.ts';
import { fileMessages } from '../../file-store.ts';
import { getPageImage } from '../../domain/page-images.ts';
import { errorResponses } from '../plugins/errors.ts';
import { dependencyUnavailable } from '../../dependencies.ts';
import type { AppContext } from '../context.ts';

/** The provider OpenAPI: these two never expire, unlike the other endpoints. */
const CACHED_FOREVER = 'private, max-age=31536000, immutable';

/**
 * `GET /v1/documents/get-document?token=` (the raw file behind a `file_url`) and
 * `GET /v1/documents/get-page-image?token=` (the JPEG behind an `image_url`). A browser opens them
 * directly (`<a>`, `<img>`), so they sit outside the API-key scope; the signed, expiring token is
 * the credential. Files are served sandboxed (no script runs on our origin from an uploaded HTML
 * file).
 */
export const documentFileRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, keyring, files }) => {
  app.get(
    '/v1/documents/get-document',
    { schema: { tags: ['Documents'], querystring: GetDocumentQuery, response: { 200: z.any().describe('The raw file'), ...errorResponses(404) } } },
    async (request, reply) => {
      const documentId = await verifyFileToken(keyring, request.query.token);
      const file = await openDocumentFile(database, documentId);
      const body =
        file.bytes ??
        (await files.stream(file.fileHash).catch((error: unknown) => {
          // A store that is away is an outage (503), not a missing file.
          throw dependencyUnavailable(error) ?? new NotFound(fileMessages.missing);
        }));
      return reply
        .header('content-type', file.contentType)
        .header('cache-control', CACHED_FOREVER)
        .header('content-security-policy', 'sandbox')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
  app.get(
    '/v1/documents/get-page-image',
    { schema: { tags: ['Documents'], querystring: GetPageImageQuery, response: { 200: z.any().describe('The page as a JPEG'), ...errorResponses(404) } } },
    async (request, reply) => {
      const page = await verifyPageImageToken(keyring, request.query.token);
      const jpeg = await getPageImage(database, files, page);
      return reply.header('content-type', 'image/jpeg').header('cache-control', CACHED_FOREVER).header('x-content-type-options', 'nosniff').send(jpeg);
    },
  );
};
