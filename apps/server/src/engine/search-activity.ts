/**
 * Searches answered by one server, counted in memory its ingestion threads share: an ingestion
 * loop that sees the count move while it indexed a batch knows searches were being answered
 * meanwhile (engine/ingest/worker.ts paces itself by it on PostgreSQL). The engine owns one; its
 * buffer goes to the ingestion threads explicitly (IngestThreadOptions).
 */
export class SearchActivity {
  private readonly count: Int32Array;

  /** `shared`: the buffer of the server's activity, when this is an ingestion thread's view of it. */
  constructor(readonly shared: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.count = new Int32Array(shared);
  }

  noteAnswered(): void {
    Atomics.add(this.count, 0, 1);
  }

  answered(): number {
    return Atomics.load(this.count, 0);
  }
}
