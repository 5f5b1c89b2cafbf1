import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
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
  const env = {
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  await keepEveryPrefixFolder(env);
  return {
    env,
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

/**
 * s3rver keeps a key's prefix as a folder and removes it when a delete empties it; a put into
 * that prefix at the same moment then fails to open its file, as an uncaught exception in the
 * test process (jamhall/s3rver#788; S3 itself has no folders). One object that is never deleted
 * in each of the raw files' 256 prefixes (`files/<aa>/`, s3-objects.ts) keeps every folder.
 */
async function keepEveryPrefixFolder(env: Record<string, string>): Promise<void> {
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY! },
  });
  const prefixes = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
  await Promise.all(prefixes.map((prefix) => client.send(new PutObjectCommand({ Bucket: env.S3_BUCKET, Key: `files/${prefix}/keep`, Body: '' }))));
  client.destroy();
}
