import {
  AddDocumentRequest,
  DefaultResponse,
  DeleteDocumentRequest,
  DeleteDocumentResponse,
  GetDocumentInfoListQuery,
  GetDocumentInfoListRequest,
  GetDocumentInfoListResponse,
  GetDocumentInfoRequest,
  GetDocumentInfoResponse,
  GetPageInfoRequest,
  GetPageInfoResponse,
  UpdateDocumentRequest,
} from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addDocument, deleteDocuments, getDocumentInfo, getPageInfo, listDocuments, updateDocument } from '../../../domain/documents.ts';
import { requireWriteAccess } from '../../plugins/api-key-auth.ts';
import { errorResponses } from '../../plugins/errors.ts';
import type { AppContext } from '../../context.ts';

export const documentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, engine }) => {
  const tags = ['Documents'];
  app.post(
    '/documents/add-document',
    { schema: { tags, body: AddDocumentRequest, response: { 200: DefaultResponse, 201: DefaultResponse, ...errorResponses(403, 404, 409) } } },
    async (request, reply) => {
      requireWriteAccess(request);
      const { created } = await addDocument(database, engine, request.actor, request.body);
      return reply.status(created ? 201 : 200).send({ message: 'Success!' });
    },
  );
  app.post(
    '/documents/update-document',
    { schema: { tags, body: UpdateDocumentRequest, response: { 200: DefaultResponse, ...errorResponses(400, 403, 404) } } },
    async (request) => {
      requireWriteAccess(request);
      return updateDocument(database, engine, request.actor, request.body);
    },
  );
  app.post(
    '/documents/delete-document',
    { schema: { tags, body: DeleteDocumentRequest, response: { 200: DeleteDocumentResponse, ...errorResponses(403, 404) } } },
    async (request) => {
      requireWriteAccess(request);
      return deleteDocuments(database, engine, request.actor, request.body);
    },
  );
  app.post(
    '/documents/get-document-info',
    { schema: { tags, body: GetDocumentInfoRequest, response: { 200: GetDocumentInfoResponse, ...errorResponses(404) } } },
    async (request) => getDocumentInfo(database, engine, request.actor, request.body),
  );
  app.post(
    '/documents/get-document-info-list',
    {
      schema: {
        tags,
        body: GetDocumentInfoListRequest,
        querystring: GetDocumentInfoListQuery,
        response: { 200: GetDocumentInfoListResponse, ...errorResponses(404) },
      },
    },
    async (request) => listDocuments(database, request.actor, { ...request.body, ...request.query }),
  );
  app.post(
    '/documents/get-page-info',
    { schema: { tags, body: GetPageInfoRequest, response: { 200: GetPageInfoResponse, ...errorResponses(404) } } },
    async (request) => getPageInfo(database, engine, request.actor, request.body),
  );
};
