/** Paths kept per server; past this many, the oldest read goes first. */
const PATHS_KEPT = 200_000;

/**
 * Documents' paths by id, as a PostgreSQL search's page and snippet hits need them. A document's
 * path never changes (an overwrite keeps its id and its path), so any server may keep one it has
 * read, whatever other servers do meanwhile: the search statement then leaves the documents table
 * out unless the request asks for metadata. Joined there, the documents of every search's hits
 * were a noticeable part of the statement's work in the database.
 */
export class DocumentPaths {
  readonly #paths = new Map<string, string>();
  readonly #read: (documentIds: string[]) => Promise<{ id: string; path: string }[]>;

  constructor(read: (documentIds: string[]) => Promise<{ id: string; path: string }[]>) {
    this.#read = read;
  }

  /**
   * The hits with their documents' paths (those without one yet), in place; a hit whose document
   * was deleted since the search read it is left out (its path cannot be read any more, and the
   * document is gone).
   */
  async withPaths<Hit extends { documentId: string; path: string | null }>(hits: Hit[]): Promise<(Hit & { path: string })[]> {
    let missing: string[] | null = null;
    for (const hit of hits) {
      if (hit.path !== null) continue;
      const path = this.#paths.get(hit.documentId);
      if (path === undefined) (missing ??= []).push(hit.documentId);
      else hit.path = path;
    }
    if (missing === null) return hits as (Hit & { path: string })[];
    const read = new Map((await this.#read([...new Set(missing)])).map(({ id, path }) => [id, path]));
    for (const [id, path] of read) {
      if (this.#paths.size >= PATHS_KEPT) this.#paths.delete(this.#paths.keys().next().value!);
      this.#paths.set(id, path);
    }
    const found: (Hit & { path: string })[] = [];
    for (const hit of hits) {
      hit.path ??= read.get(hit.documentId) ?? null;
      if (hit.path !== null) found.push(hit as Hit & { path: string });
    }
    return found;
  }
}
