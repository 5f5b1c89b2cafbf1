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
import type { AppContext } from '../../context.ts';
import { providerActor } from './actor.ts';

export const documentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const { database } = context;
  const tags = ['Documents'];
  app.post(
    '/documents/add-document',
    { schema: { tags, body: AddDocumentRequest, response: { 200: DefaultResponse, 201: DefaultResponse } } },
    async (request, reply) => {
      requireWriteAccess(request);
      const { created } = await addDocument(database, providerActor(request, context), request.body);
      return reply.status(created ? 201 : 200).send({ message: 'Success!' });
    },
  );
  app.post(
    '/documents/update-document',
    { schema: { tags, body: UpdateDocumentRequest, response: { 200: DefaultResponse } } },
    async (request) => {
      requireWriteAccess(request);
      return updateDocument(database, request.apiKey, request.body);
    },
  );
  app.post(
    '/documents/delete-document',
    { schema: { tags, body: DeleteDocumentRequest, response: { 200: DeleteDocumentResponse } } },
    async (request) => {
      requireWriteAccess(request);
      return deleteDocuments(database, providerActor(request, context), request.body);
    },
  );
  app.post(
    '/documents/get-document-info',
    { schema: { tags, body: GetDocumentInfoRequest, response: { 200: GetDocumentInfoResponse } } },
    async (request) => getDocumentInfo(database, providerActor(request, context), request.body),
  );
  app.post(
    '/documents/get-document-info-list',
    { schema: { tags, body: GetDocumentInfoListRequest, querystring: GetDocumentInfoListQuery, response: { 200: GetDocumentInfoListResponse } } },
    async (request) => listDocuments(database, providerActor(request, context), { ...request.body, ...request.query }),
  );
  app.post(
    '/documents/get-page-info',
    { schema: { tags, body: GetPageInfoRequest, response: { 200: GetPageInfoResponse } } },
    async (request) => getPageInfo(database, providerActor(request, context), request.body),
  );
};
