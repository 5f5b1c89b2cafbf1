import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config.ts';
import { DependencyUnavailable, isObjectStoreUnreachable } from '../dependencies.ts';
import type { ObjectStore } from '../domain/file-store.ts';

/** S3's limit of keys per DeleteObjects call. */
const DELETE_BATCH = 1000;

/**
 * Raw files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2 ...), at `files/<aa>/<sha256>`.
 * Checksums are sent and checked only where the S3 protocol requires them, which every
 * S3-compatible server understands (newer SDK defaults are AWS-only extensions).
 */
export function s3Objects(config: NonNullable<StorageConfig['s3']>): ObjectStore {
  const client = s3Client(config);
  const Bucket = config.bucket;
  const keyOf = (hash: string) => `files/${hash.slice(0, 2)}/${hash}`;
  const open = async (hash: string) => {
    const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(hash) }));
    if (!Body) throw new Error(`no stored object ${hash}`);
    return Body;
  };
  return {
    kind: 's3',
    write: (hash, bytes) => unreachableAsOutage(client.send(new PutObjectCommand({ Bucket, Key: keyOf(hash), Body: bytes, ContentLength: bytes.length }))).then(() => {}),
    read: (hash) => unreachableAsOutage(open(hash).then(async (body) => Buffer.from(await body.transformToByteArray()))),
    exists: (hash) =>
      unreachableAsOutage(
        client.send(new HeadObjectCommand({ Bucket, Key: keyOf(hash) })).then(
          () => true,
          (error: { $metadata?: { httpStatusCode?: number } }) => {
            if (error.$metadata?.httpStatusCode === 404) return false;
            throw error;
          },
        ),
      ),
    stream: (hash) => unreachableAsOutage(open(hash)) as Promise<Readable>,
    remove: (hashes) =>
      unreachableAsOutage(
        (async () => {
          for (let start = 0; start < hashes.length; start += DELETE_BATCH) {
            const Objects = hashes.slice(start, start + DELETE_BATCH).map((hash) => ({ Key: keyOf(hash) }));
            const { Errors } = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
            if (Errors?.length) throw new Error(`the object store kept ${Errors.length} object(s): ${Errors[0]?.Code ?? 'unknown error'}`);
          }
        })(),
      ),
    close: async () => client.destroy(),
  };
}

/**
 * The store's client. A connection attempt gives up after CONNECT_TIMEOUT_MS (a store whose
 * address drops packets would otherwise hold a request for the system's TCP timeout, minutes);
 * a transfer in progress has no limit (uploads of 60 MB take their time).
 */
function s3Client(config: NonNullable<StorageConfig['s3']>): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    credentials: config.credentials,
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS },
  });
}

const CONNECT_TIMEOUT_MS = 3000;

/** What the SDK said, in a line: its messages are sometimes empty ("UnknownError"). */
const reasonOf = (error: unknown): string => {
  const { name, message, code, $metadata } = error as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  return [code ?? name, message, $metadata?.httpStatusCode ? `HTTP ${$metadata.httpStatusCode}` : ''].filter(Boolean).join(': ') || String(error);
};

/**
 * The store unreachable (no connection, a timeout, a 5xx after the SDK's own retries) becomes a
 * DependencyUnavailable: the request answers 503, ingestion tries again later. Other errors (a
 * missing object, a refused credential) stay as they are.
 */
function unreachableAsOutage<T>(operation: Promise<T>): Promise<T> {
  return operation.catch((error: unknown) => {
    throw isObjectStoreUnreachable(error) ? new DependencyUnavailable('object store', reasonOf(error), { cause: error }) : error;
  });
}

/** Readiness: the bucket answers (HeadBucket), within the client's timeouts; rejects with why not. */
export function s3Check(config: NonNullable<StorageConfig['s3']>): { check(): Promise<void>; close(): void } {
  const client = s3Client(config);
  return {
    check: () => unreachableAsOutage(client.send(new HeadBucketCommand({ Bucket: config.bucket }))).then(() => {}),
    close: () => client.destroy(),
  };
}
