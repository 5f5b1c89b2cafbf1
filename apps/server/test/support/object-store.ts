import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface ObjectStore {
  /** The S3_* variables that point at it. */
  env: Record<string, string>;
  /** An outage: the store stops answering, its objects kept. */
  stop(): Promise<void>;
  /** Back on the same port, with the same objects. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** An S3-protocol server on loopback with one bucket, and the S3_* variables that point at it. */
export async function startObjectStore(): Promise<ObjectStore> {
  const directory = mkdtempSync(join(tmpdir(), 'sift-s3-'));
  const bucket = 'sift-files';
  let s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await s3.run();
  let running = true;
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      running = false;
      await s3.close();
    },
    async restart() {
      s3 = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
      await s3.run();
      running = true;
    },
    async close() {
      if (running) await s3.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
