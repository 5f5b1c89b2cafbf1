import * as z from 'zod';
import { BODY_LIMIT_BYTES } from '../limits.ts';
import { boundedText } from '../text.ts';
import { Base64Data, CollectionName, DocumentIndexStatus, DocumentMetadata, DocumentPath, PathBound, UrlToken } from './common.ts';

/** Document text: bounded by the request body limit (BODY_LIMIT_BYTES) like everything uploaded. */
const DocumentText = boundedText(BODY_LIMIT_BYTES);

export const TextDocumentContent = z.object({ type: z.literal('text'), text: DocumentText });
export const TextPagesDocumentContent = z.object({
  type: z.enum(['text-pages', 'text-pages-unordered']),
  pages: z.array(DocumentText),
});
/** A file (PDF, DOCX, HTML, Markdown, plain text, PNG/JPEG) whose type is deduced from its bytes and path. */
export const BinaryDocumentContent = z.object({ type: z.literal('auto'), base64_data: Base64Data });

export const DocumentContent = z.discriminatedUnion('type', [TextDocumentContent, TextPagesDocumentContent, BinaryDocumentContent]);
export type DocumentContent = z.infer<typeof DocumentContent>;

export const AddDocumentRequest = z.object({
  collection_name: CollectionName,
  path: DocumentPath,
  content: DocumentContent,
  metadata: DocumentMetadata.default({}),
  overwrite: z.boolean().default(false),
});
export type AddDocumentRequest = z.infer<typeof AddDocumentRequest>;

export const UpdateDocumentRequest = z.object({
  collection_name: CollectionName,
  path: DocumentPath,
  metadata: DocumentMetadata.nullish(),
  index_status: z.enum(['not_parsed', 'not_indexed']).nullish(),
});
export type UpdateDocumentRequest = z.infer<typeof UpdateDocumentRequest>;

export const DeleteDocumentRequest = z.object({
  collection_name: CollectionName,
  path: z.union([
    DocumentPath,
    z.array(DocumentPath).min(1, 'give between 1 and 64 paths').max(64, 'give between 1 and 64 paths'),
  ]),
});
export type DeleteDocumentRequest = z.infer<typeof DeleteDocumentRequest>;

export const DeleteDocumentResponse = z.object({ deleted_paths: z.array(z.string()) });
export type DeleteDocumentResponse = z.infer<typeof DeleteDocumentResponse>;

export const GetDocumentInfoRequest = z.object({
  collection_name: CollectionName,
  path: DocumentPath,
  include_content: z.boolean().default(false),
});
export type GetDocumentInfoRequest = z.infer<typeof GetDocumentInfoRequest>;

const documentFields = {
  id: z.uuid(),
  collection_name: CollectionName,
  path: DocumentPath,
  metadata: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  index_status: DocumentIndexStatus,
  size: z.number().int(),
  num_pages: z.number().int().nullable(),
  file_url: z.string(),
  /** Sift's addition: why a `parsing_failed` or `indexing_failed` document failed, else null. */
  failure_reason: z.string().nullable(),
};

export const DocumentInfo = z.object({ ...documentFields, content: z.string().nullable() });
export type DocumentInfo = z.infer<typeof DocumentInfo>;

export const GetDocumentInfoResponse = z.object({ document: DocumentInfo });
export type GetDocumentInfoResponse = z.infer<typeof GetDocumentInfoResponse>;

export const GetDocumentInfoListRequest = z.object({
  collection_name: CollectionName,
  limit: z.number().int().min(1).max(1024).default(1024),
  path_prefix: PathBound.nullish(),
  path_gt: PathBound.nullish(),
});
export type GetDocumentInfoListRequest = z.infer<typeof GetDocumentInfoListRequest>;

/**
 * The cursor in the query string. The official SDK's auto-pager (`for await`) only carries the
 * next `path_gt` this way, and only when the call passes a `query` request option; the query
 * string then wins over the body.
 */
export const GetDocumentInfoListQuery = z.object({
  path_gt: PathBound.optional(),
  limit: z.coerce.number().int().min(1).max(1024).optional(),
});

export const DocumentListItem = z.object({ ...documentFields, created_at: z.string() });
export type DocumentListItem = z.infer<typeof DocumentListItem>;

export const GetDocumentInfoListResponse = z.object({ documents: z.array(DocumentListItem) });
export type GetDocumentInfoListResponse = z.infer<typeof GetDocumentInfoListResponse>;

export const GetPageInfoRequest = z.object({
  collection_name: CollectionName,
  path: DocumentPath,
  page_index: z.number().int().min(0),
  include_content: z.boolean().default(false),
});
export type GetPageInfoRequest = z.infer<typeof GetPageInfoRequest>;

export const PageInfo = z.object({
  id: z.uuid(),
  collection_name: CollectionName,
  path: DocumentPath,
  page_index: z.number().int(),
  content: z.string().nullable(),
  image_url: z.string().nullable(),
});
export type PageInfo = z.infer<typeof PageInfo>;

export const GetPageInfoResponse = z.object({ page: PageInfo });
export type GetPageInfoResponse = z.infer<typeof GetPageInfoResponse>;

/** `GET /documents/get-document?token=`: the signed, expiring token inside `file_url`. */
export const GetDocumentQuery = z.object({ token: UrlToken });

/** `GET /documents/get-page-image?token=`: the signed token inside `image_url`. */
export const GetPageImageQuery = z.object({ token: UrlToken });
