/** The provider API's index status of a document (the SDK's wider enumeration). */
export type ProviderIndexStatus = 'not_parsed' | 'parsing' | 'not_indexed' | 'indexing' | 'indexed' | 'parsing_failed' | 'indexing_failed';

/** The spec's five document states (§3): waiting to parse counts as parsing, waiting to index as indexing. */
export type IndexStatus = 'parsing' | 'indexing' | 'indexed' | 'parsing_failed' | 'indexing_failed';

export function toIndexStatus(status: ProviderIndexStatus): IndexStatus {
  if (status === 'not_parsed') return 'parsing';
  if (status === 'not_indexed') return 'indexing';
  return status;
}

/** Indexed or failed: nothing will change without a new request, so polling can stop. */
export const isFinalStatus = (status: ProviderIndexStatus | IndexStatus): boolean =>
  status === 'indexed' || status === 'parsing_failed' || status === 'indexing_failed';

export const indexStatusLabel: Record<IndexStatus, string> = {
  parsing: 'Parsing',
  indexing: 'Indexing',
  indexed: 'Indexed',
  parsing_failed: 'Parsing failed',
  indexing_failed: 'Indexing failed',
};
