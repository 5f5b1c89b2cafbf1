import type { Migration } from 'kysely';
import * as accounts from './001_accounts.ts';
import * as retrieval from './002_retrieval.ts';
import * as billing from './003_billing.ts';
import * as usage from './004_usage.ts';
import * as usageRollups from './005_usage_rollups.ts';
import * as searchFile from './006_search_file.ts';
import * as collectionIndex from './007_collection_index.ts';
import * as scaleOut from './009_scale_out.ts';
import * as providerApi from './010_provider_api.ts';
import * as compactPostings from './011_compact_postings.ts';
import * as metadataByCollection from './012_metadata_by_collection.ts';
import * as smallFilesInSqlite from './013_small_files_in_sqlite.ts';
import * as coveringPostings from './014_covering_postings.ts';
import * as coveringStatusCounts from './015_covering_status_counts.ts';
import * as documentUsagePending from './016_document_usage_pending.ts';
import * as sessions from './017_sessions.ts';
import * as textStoredOnce from './018_text_stored_once.ts';
import * as postingsByCollection from './019_postings_by_collection.ts';
import * as vectors from './021_vectors.ts';
import * as compactRows from './022_compact_rows.ts';
import * as vectorsByCollection from './023_vectors_by_collection.ts';
import * as textInPieces from './024_text_in_pieces.ts';
import * as postingsInBlocks from './025_postings_in_blocks.ts';
import * as blockSizes from './026_block_sizes.ts';
import * as rowCounts from './027_row_counts.ts';
import * as pagesFileInText from './028_pages_file_in_text.ts';
import * as queueAloneIndexes from './029_queue_alone_indexes.ts';
import * as postingsArraysUnanalyzed from './030_postings_arrays_unanalyzed.ts';
import * as shorterPieces from './031_shorter_pieces.ts';
import * as piecesInBytes from './032_pieces_in_bytes.ts';
import * as onePageDocuments from './033_one_page_documents.ts';

/**
 * Migrations by name; Kysely runs them in name order. Each area adds its own file here
 * (002 retrieval, 003 billing). Both dialects run the same ones.
 */
export const migrations: Record<string, Migration> = {
  '001_accounts': accounts,
  '002_retrieval': retrieval,
  '003_billing': billing,
  '004_usage': usage,
  '005_usage_rollups': usageRollups,
  '006_search_file': searchFile,
  '007_collection_index': collectionIndex,
  '009_scale_out': scaleOut,
  '010_provider_api': providerApi,
  '011_compact_postings': compactPostings,
  '012_metadata_by_collection': metadataByCollection,
  '013_small_files_in_sqlite': smallFilesInSqlite,
  '014_covering_postings': coveringPostings,
  '015_covering_status_counts': coveringStatusCounts,
  '016_document_usage_pending': documentUsagePending,
  '017_sessions': sessions,
  '018_text_stored_once': textStoredOnce,
  '019_postings_by_collection': postingsByCollection,
  '021_vectors': vectors,
  '022_compact_rows': compactRows,
  '023_vectors_by_collection': vectorsByCollection,
  '024_text_in_pieces': textInPieces,
  '025_postings_in_blocks': postingsInBlocks,
  '026_block_sizes': blockSizes,
  '027_row_counts': rowCounts,
  '028_pages_file_in_text': pagesFileInText,
  '029_queue_alone_indexes': queueAloneIndexes,
  '030_postings_arrays_unanalyzed': postingsArraysUnanalyzed,
  '031_shorter_pieces': shorterPieces,
  '032_pieces_in_bytes': piecesInBytes,
  '033_one_page_documents': onePageDocuments,
};
