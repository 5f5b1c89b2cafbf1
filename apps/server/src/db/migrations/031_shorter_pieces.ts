import { type Kysely, sql } from 'kysely';
import { PIECE_UNITS, textPieces } from '../../engine/search/slices.ts';
import { cutPiecesAgain } from './cut-pieces-again.ts';

/** The pieces' length before this migration. */
const LONG_PIECE_UNITS = 16_384;

/**
 * Documents' texts cut again into pieces of PIECE_UNITS (slices.ts) from 16,384 units, by units
 * alone (migration 032 adds the bound in bytes). Documents with astral characters are all cut
 * again: a piece's length in SQL counts code points, not units.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const chosen = sql`d.text_astral = 1 or exists (select 1 from document_pieces x where x.document_seq = d.seq and length(x.text) > ${PIECE_UNITS + 1})`;
  await cutPiecesAgain(db, chosen, (text) => textPieces(text, PIECE_UNITS, null));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const chosen = sql`(select count(*) from document_pieces x where x.document_seq = d.seq) > 1`;
  await cutPiecesAgain(db, chosen, (text) => textPieces(text, LONG_PIECE_UNITS, null));
}
