import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * A document that used to kill its worker: a small DOCX that unpacks to 100 MB of XML (a
 * decompression bomb), given to `npm run worker` processes with a 256 MB heap, which the parser
 * outgrew (V8 aborted), as it would under the OOM killer. Parsers now run in processes of their
 * own, killed at the memory cap (SIFT_PARSE_MEMORY_MB=256 here): the worker lives, the bomb fails
 * alone on its first attempt with the reason, and the 31 documents claimed in its batch are all
 * indexed. (A worker that dies is the queue's case: ingest-queue.test.ts.) Each run restarts the
 * worker on the same data folder (SQLite: the start hands every lease back).
 * SQLite only: on PostgreSQL a dead worker's leases come back when they expire.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
let h: Harness;
let apiKey: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  h = await startHarness();
  ({ apiKey } = await bootstrap(h.database, h.keyring, { email: 'bomb@example.com', name: 'Bomb', organizationName: 'Bomb' }));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await h.close();
});

async function decompressionBomb(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = '<w:p><w:r><w:t>boom boom boom boom</w:t></w:r></w:p>'.repeat(2_000_000);
  zip.file('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** Runs one worker process until it dies or the collection has nothing left to do; true when it died. */
async function runWorker(done: () => Promise<boolean>): Promise<boolean> {
  const child = spawn(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', 'apps/server/src/worker.ts'], {
    cwd: root,
    env: { ...process.env, SIFT_DATA_DIR: h.config.dataDir, SIFT_SECRET: h.config.secret, SIFT_INGEST_WORKERS: '1', SIFT_PARSE_MEMORY_MB: '256', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let died = false;
  void exited.then(() => (died = true));
  while (!died && !(await done())) await new Promise((resolve) => setTimeout(resolve, 200));
  if (died) return child.exitCode !== 0;
  child.kill('SIGTERM');
  await exited;
  return false;
}

test.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')(
  'a decompression bomb no longer kills its worker: it fails alone on its first attempt with the reason; every other document of its batch ends indexed',
  { timeout: 240_000 },
  async () => {
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'batch' }, apiKey)).status).toBe(201);
    const bomb = (await decompressionBomb()).toString('base64');
    for (let i = 0; i < 32; i++) {
      const content = i === 10 ? { type: 'auto', base64_data: bomb } : { type: 'text', text: `Document ${i} about harbour lighthouses.` };
      const path = i === 10 ? 'bomb.docx' : `doc-${i}.txt`;
      expect((await h.call('/v1/documents/add-document', { collection_name: 'batch', path, content }, apiKey)).status).toBe(201);
    }
    const status = async () => (await h.call('/v1/status/get-status', { collection_name: 'batch' }, apiKey)).body;
    const finished = async () => {
      const counts = await status();
      return counts.num_indexed_documents + counts.num_failed_documents === 32;
    };
    let deaths = 0;
    for (let run = 0; run < 6 && !(await finished()); run++) if (await runWorker(finished)) deaths++;

    expect(deaths).toBe(0);
    expect(await status()).toMatchObject({ num_documents: 32, num_indexed_documents: 31, num_failed_documents: 1 });
    const failed = await h.database.db.selectFrom('documents').select(['path', 'index_status', 'error']).where('index_status', '!=', 'indexed').execute();
    expect(failed).toEqual([{ path: 'bomb.docx', index_status: 'parsing_failed', error: 'Reading the DOCX document needed more than 256 MB of memory.' }]);
  },
);
