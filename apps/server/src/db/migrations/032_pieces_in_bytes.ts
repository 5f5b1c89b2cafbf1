import { type Kysely, sql } from 'kysely';
import { PIECE_BYTES, PIECE_UNITS, textPieces } from '../../engine/search/slices.ts';
import { cutPiecesAgain } from './cut-pieces-again.ts';

/**
 * Documents with a piece over PIECE_BYTES UTF-8 bytes (accented or non-Latin text; slices.ts) cut
 * again into pieces bounded in bytes as well as units. octet_length counts bytes on both dialects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const chosen = sql`exists (select 1 from document_pieces x where x.document_seq = d.seq and octet_length(x.text) > ${PIECE_BYTES})`;
  await cutPiecesAgain(db, chosen, (text) => textPieces(text));
}

/** Texts with any character over one byte cut again by units alone. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const chosen = sql`exists (select 1 from document_pieces x where x.document_seq = d.seq and octet_length(x.text) > length(x.text))`;
  await cutPiecesAgain(db, chosen, (text) => textPieces(text, PIECE_UNITS, null));
}
