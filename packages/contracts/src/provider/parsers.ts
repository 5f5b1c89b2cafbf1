import * as z from 'zod';
import { Base64Data } from './common.ts';

// Provider API "Parsers": /parsers/parse-document. Not in the OpenAPI description we were given;
// the shape is that of the official SDKs (`parsers.parseDocument({ base64_data })` -> `{ pages }`).

export const ParseDocumentRequest = z.object({
  /** The file's raw bytes, base64-encoded. Nothing is stored. */
  base64_data: Base64Data,
});
export type ParseDocumentRequest = z.infer<typeof ParseDocumentRequest>;

export const ParseDocumentResponse = z.object({
  /** The full text of each page, in order. */
  pages: z.array(z.string()),
});
export type ParseDocumentResponse = z.infer<typeof ParseDocumentResponse>;
