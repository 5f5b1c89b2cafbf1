import type { Generated } from 'kysely';

/** How a document's content arrived: decides how the worker turns the stored file into pages. */
export type DocumentSourceType = 'text' | 'text-pages' | 'text-pages-unordered' | 'auto';

export type IndexStatus = 'not_parsed' | 'parsing' | 'not_indexed' | 'indexing' | 'indexed' | 'parsing_failed' | 'indexing_failed';

/** Collections, documents (the ingestion queue), pages and chunks. */
export interface RetrievalTables {
  collections: {
    id: string;
    organization_id: string;
    name: string;
    created_at: string;
  };
  documents: {
    /** Integer key of the document-level search index (FTS5 rowid). */
    seq: Generated<number>;
    id: string;
    organization_id: string;
    collection_id: string;
    path: string;
    /** JSON text of `dict[str, str | list[str]]`; `document_metadata` holds the same for filtering. */
    metadata: string;
    index_status: IndexStatus;
    source_type: DocumentSourceType;
    /** Bytes of the raw document data. */
    size: number;
    /** SHA-256 of the stored raw file, its name under `<dataDir>/files/`. */
    file_hash: string;
    created_at: string;
    updated_at: string;
    num_pages: number | null;
    error: string | null;
    /** The worker holding this document, and until when (Unix milliseconds). */
    lease_owner: string | null;
    lease_expires_at: number | null;
    attempts: number;
    /**
     * 1 when its text holds characters outside the Basic Multilingual Plane: SQL's substr counts
     * code points, the offsets UTF-16 units, so such a text's slices are cut in JavaScript (slices.ts).
     */
    text_astral: Generated<number>;
    /** UTF-8 bytes of its text once indexed (status `num_indexed_bytes`). */
    text_bytes: number;
    /**
     * 1 once indexed when the raw file is exactly the UTF-8 of `text` (a plain text or Markdown
     * upload): no copy of the file is kept, its bytes are made from the text when asked for.
     */
    file_in_text: Generated<number>;
    /** 1 when its pages have images (a PDF, or an image's one page): decided at upload. */
    has_page_images: Generated<number>;
  };
  /**
   * A document's parsed text, pages joined, stored once, in pieces (engine/search/slices.ts):
   * pages and snippets are offsets into it (start_index, end_index, in UTF-16 code units), their
   * content read from the pieces they overlap. An indexed document has at least one.
   */
  document_pieces: {
    document_seq: number;
    /** Where the piece starts in the text. */
    start_index: number;
    text: string;
  };
  /** A page's JPEG, made on first request and kept while the document lives. */
  page_images: {
    document_id: string;
    page_index: number;
    jpeg: Buffer;
  };
  /** One row per metadata value (each element of a `list:` attribute): filters are EXISTS lookups. */
  document_metadata: {
    document_id: string;
    /** The document's collection and seq: the filters' index is (collection, key, value, seq). */
    collection_id: string;
    document_seq: number;
    key: string;
    value: string;
  };
  pages: {
    seq: Generated<number>;
    id: string;
    document_id: string;
    collection_id: string;
    page_index: number;
    start_index: number;
    end_index: number;
  };
  /** Coarse and fine snippets: offsets into their document's text, keyed by its seq (its collection is the document's). */
  chunks: {
    seq: Generated<number>;
    document_seq: number;
    granularity: 'coarse' | 'fine';
    start_index: number;
    end_index: number;
    page_start: number;
    page_end: number;
  };
}
