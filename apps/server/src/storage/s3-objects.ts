import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config.ts';
import { ObjectMissing, type ObjectStore } from '../file-store.ts';

/** S3's limit of keys per DeleteObjects call. */
const DELETE_BATCH = 1000;

/**
 * Raw files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2 ...), at `files/<aa>/<sha256>`.
 * Checksums are sent and checked only where the S3 protocol requires them, which every
 * S3-compatible server understands (newer SDK defaults are AWS-only extensions).
 */
export function s3Objects(config: NonNullable<StorageConfig['s3']>): ObjectStore {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    credentials: config.credentials,
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  const keyOf = (hash: string) => `files/${hash.slice(0, 2)}/${hash}`;
  const open = async (hash: string) => {
    const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(hash) })).catch((error: unknown) => {
      // Only "no such key" says the object is gone; anything else (refused, timed out, 5xx) is the store.
      throw isNotFound(error) ? new ObjectMissing(hash) : error;
    });
    if (!Body) throw new ObjectMissing(hash);
    return Body;
  };
  return {
    kind: 's3',
    async write(hash, bytes) {
      await client.send(new PutObjectCommand({ Bucket, Key: keyOf(hash), Body: bytes, ContentLength: bytes.length }));
    },
    read: async (hash) => Buffer.from(await (await open(hash)).transformToByteArray()),
    async exists(hash) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(hash) }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    stream: async (hash) => (await open(hash)) as Readable,
    async remove(hashes) {
      for (let start = 0; start < hashes.length; start += DELETE_BATCH) {
        const Objects = hashes.slice(start, start + DELETE_BATCH).map((hash) => ({ Key: keyOf(hash) }));
        const { Errors } = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
        if (Errors?.length) throw new Error(`the object store kept ${Errors.length} object(s): ${Errors[0]?.Code ?? 'unknown error'}`);
      }
    },
    close: async () => client.destroy(),
  };
}

const isNotFound = (error: unknown): boolean =>
  (error as { name?: string } | null)?.name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode === 404;
