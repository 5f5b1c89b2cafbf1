import { bootstrap } from '../src/domain/bootstrap.ts';
import { addApiKey } from '../src/domain/api-keys.ts';
import { type IngestWorkers, startIngestWorkers } from '../src/engine/ingest/worker.ts';
import type { Harness } from './harness.ts';

/**
 * Two organizations on one harness: A with a full key and a read_only key, B with a full key;
 * and the ingestion workers, whose `idle()` waits until the queue is empty.
 */
export async function providerFixtures(h: Harness) {
  const a = await bootstrap(h.database, h.keyring, { email: 'owner-a@example.com', name: 'Owner A', organizationName: 'Org A' });
  const b = await bootstrap(h.database, h.keyring, { email: 'owner-b@example.com', name: 'Owner B', organizationName: 'Org B' });
  const readOnly = await addApiKey(h.database, { keyring: h.keyring, userId: a.userId }, { organization_id: a.organizationId, name: 'reader', permission: 'read_only' });
  const workers: IngestWorkers = await startIngestWorkers({ database: h.database, files: h.files, concurrency: 1, idlePollMs: 50 });
  return { keyA: a.apiKey, keyB: b.apiKey, readOnlyA: readOnly.api_key, organizationA: a.organizationId, organizationB: b.organizationId, workers };
}
