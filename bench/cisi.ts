import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CISI test collection (`../shared/data/cisi`, see its README): 1,460 abstracts, 112 queries,
 * binary judgements for 76 of them. A document is its title and abstract (`.T`, `.W`); a query
 * its `.W` text.
 */

export interface Cisi {
  documents: { id: string; text: string }[];
  /** Only the judged queries. */
  queries: { id: string; text: string; relevant: Set<string> }[];
}

export const CISI_DIR = join(import.meta.dirname, '..', '..', 'shared', 'data', 'cisi');

/** Records of a SMART-format file: `.I id` then fields `.X` each followed by its lines. */
function records(text: string): { id: string; fields: Map<string, string> }[] {
  const result: { id: string; fields: Map<string, string> }[] = [];
  let field = '';
  for (const line of text.split(/\r?\n/)) {
    const marker = /^\.([A-Z])\s*(.*)$/.exec(line);
    if (marker) {
      if (marker[1] === 'I') {
        result.push({ id: marker[2]!.trim(), fields: new Map() });
        field = '';
      } else field = marker[1]!;
      continue;
    }
    const current = result.at(-1);
    if (current && field) current.fields.set(field, `${current.fields.get(field) ?? ''}${line}\n`);
  }
  return result;
}

export function readCisi(dir = CISI_DIR): Cisi {
  const documents = records(readFileSync(join(dir, 'CISI.ALL'), 'utf8')).map(({ id, fields }) => ({
    id,
    text: `${(fields.get('T') ?? '').trim()}\n\n${(fields.get('W') ?? '').trim()}`,
  }));
  const judgements = new Map<string, Set<string>>();
  for (const line of readFileSync(join(dir, 'CISI.REL'), 'utf8').split('\n')) {
    const [query, document] = line.trim().split(/\s+/);
    if (!query || !document) continue;
    if (!judgements.has(query)) judgements.set(query, new Set());
    judgements.get(query)!.add(document);
  }
  const queries = records(readFileSync(join(dir, 'CISI.QRY'), 'utf8'))
    .filter(({ id }) => judgements.has(id))
    .map(({ id, fields }) => ({ id, text: (fields.get('W') ?? '').replace(/\s+/g, ' ').trim(), relevant: judgements.get(id)! }));
  return { documents, queries };
}
