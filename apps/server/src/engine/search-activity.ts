/**
 * Searches this process has answered, counted in memory its ingestion threads share (the buffer
 * goes to them in workerData): an ingestion loop that sees the count move while it indexed a batch
 * knows searches were being answered meanwhile (engine/ingest/worker.ts paces itself by it).
 */
export const searchesAnswered = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

export function noteSearchAnswered(): void {
  Atomics.add(searchesAnswered, 0, 1);
}
