import type { ParseDocumentRequest, ParseDocumentResponse } from '@sift/contracts';
import type { Database } from '../db/schema.ts';
import type { EngineServices } from '../engine/engine.ts';
import { ParseError, ParsingStopped } from '../engine/ingest/parse.ts';
import { DomainError, Invalid } from './errors.ts';
import type { ProviderActor } from './provider-actor.ts';

/**
 * The pages of a file, read by the same parsers ingestion uses (type detected from the bytes).
 * Nothing is stored and no collection is touched: the database and the actor go unused (the
 * signature is every provider service's).
 * A file that cannot be read answers 422 with the parser's reason; one whose parse the server's
 * shutdown cut short, 503 (another server, or this one restarted, will read it).
 */
export async function parseDocument(_database: Database, { parser }: EngineServices, _actor: ProviderActor, input: ParseDocumentRequest): Promise<ParseDocumentResponse> {
  try {
    const { pages } = await parser.parse(Buffer.from(input.base64_data, 'base64'));
    return { pages };
  } catch (error) {
    if (error instanceof ParseError) throw new Invalid(error.message);
    if (error instanceof ParsingStopped) throw new DomainError(503, 'The server is shutting down; try again.', { 'retry-after': '1' });
    throw error;
  }
}
