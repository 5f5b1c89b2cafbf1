import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchDocument } from './corpus.ts';

/**
 * The CISI test collection (../shared/data/cisi, or SIFT_BENCH_CISI): 1,460 abstracts, 112
 * queries, binary judgements for 76 of them; the one reader of it for every benchmark. A document
 * is its title and abstract (`.T`, `.W`), path `cisi/<id>`; a query is its title, when it has one
 * (55 of the 112 are an article's title and abstract), and its text (`.T`, `.W`): the whole
 * statement of the need, as a user would paste it. Authors (`.A`, `.B`) and citations (`.X`) are
 * not text to match.
 */
export interface Cisi {
  documents: BenchDocument[];
  /** Judged queries only: their text and the paths judged relevant. */
  queries: { id: string; text: string; relevant: Set<string> }[];
}

export function cisiDirectory(): string | null {
  if (process.env.SIFT_BENCH_CISI === 'none') return null;
  const candidates = [process.env.SIFT_BENCH_CISI, join(process.cwd(), '../shared/data/cisi'), '/work/shared/data/cisi'];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'CISI.ALL'))) ?? null;
}

/** `.I id` records of fields `.X`: the text of each field, by letter. */
function records(text: string): { id: string; fields: Record<string, string> }[] {
  const result: { id: string; fields: Record<string, string> }[] = [];
  let current: { id: string; fields: Record<string, string> } | null = null;
  let field = '';
  for (const line of text.split('\n')) {
    const marker = /^\.([A-Z])\s*(.*)$/.exec(line);
    if (marker && marker[1] === 'I') {
      current = { id: marker[2]!.trim(), fields: {} };
      result.push(current);
    } else if (marker) {
      field = marker[1]!;
      current!.fields[field] = marker[2] ?? '';
    } else if (current && field) {
      current.fields[field] += `${line}\n`;
    }
  }
  return result;
}

export function loadCisi(dir: string): Cisi {
  const documents = records(readFileSync(join(dir, 'CISI.ALL'), 'utf8')).map(({ id, fields }) => {
    const text = `${(fields.T ?? '').trim()}\n\n${(fields.W ?? '').replace(/\s+/g, ' ').trim()}`;
    return { path: `cisi/${id}`, content: { type: 'text' as const, text }, pages: [text], bytes: Buffer.byteLength(text) };
  });
  const relevant = new Map<string, Set<string>>();
  for (const line of readFileSync(join(dir, 'CISI.REL'), 'utf8').split('\n')) {
    const [query, document] = line.trim().split(/\s+/);
    if (!query || !document) continue;
    if (!relevant.has(query)) relevant.set(query, new Set());
    relevant.get(query)!.add(`cisi/${document}`);
  }
  const queries = records(readFileSync(join(dir, 'CISI.QRY'), 'utf8'))
    .filter(({ id }) => relevant.has(id))
    .map(({ id, fields }) => ({ id, text: `${fields.T ?? ''} ${fields.W ?? ''}`.replace(/\s+/g, ' ').trim(), relevant: relevant.get(id)! }));
  return { documents, queries };
}
