// The few object-storage operations a deploy needs, over the AWS SDK's S3 client.
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, NoSuchKey, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { UploadHeaders } from './headers.ts';
import type { DeployTarget } from './target.ts';

export interface StoredEntry {
  bytes: number;
  /** As the server reports it, quotes included. */
  etag: string;
}

export interface ObjectStore {
  /** Every object whose key starts with `prefix`. */
  list(prefix: string): Promise<Map<string, StoredEntry>>;
  /** The sha256 a deploy stored in the object's metadata; null when the object or the metadata is missing. */
  sha256Of(key: string): Promise<string | null>;
  get(key: string): Promise<Buffer | null>;
  put(key: string, body: Buffer, headers: UploadHeaders): Promise<void>;
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Without `credentials`, the SDK's chain finds them (environment variables, profiles, instance roles). */
export function s3Store(target: DeployTarget, credentials?: Credentials): ObjectStore {
  const client = new S3Client({
    credentials,
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: target.forcePathStyle,
    // Integrity is checked by the sha256 metadata and the ETag; the SDK's default CRC32 trailers are
    // rejected by several S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = target.bucket;
  return {
    async list(prefix) {
      const found = new Map<string, StoredEntry>();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const o of page.Contents ?? []) found.set(o.Key!, { bytes: o.Size ?? 0, etag: o.ETag ?? '' });
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
    async sha256Of(key) {
      return orNull(async () => (await client.send(new HeadObjectCommand({ Bucket, Key: key }))).Metadata?.sha256 ?? null);
    },
    async get(key) {
      return orNull(async () => {
        const response = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from(await response.Body!.transformToByteArray());
      });
    },
    async put(key, body, headers) {
      await client.send(new PutObjectCommand({
        Bucket,
        Key: key,
        Body: body,
        ContentType: headers.contentType,
        ContentEncoding: headers.contentEncoding,
        CacheControl: headers.cacheControl,
        Metadata: { sha256: headers.sha256 },
      }));
    },
  };
}

async function orNull<T>(request: () => Promise<T | null>): Promise<T | null> {
  try {
    return await request();
  } catch (e) {
    if (e instanceof NoSuchKey || e instanceof NotFound || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw e;
  }
}
