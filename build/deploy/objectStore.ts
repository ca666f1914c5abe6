// The few object-storage operations a deploy needs, over the AWS SDK's S3 client. Every call has a deadline and is
// tried a bounded number of times, so that a store that accepts a connection and never answers fails the deploy
// within `timeout × attempts` (plus the pauses between), naming the call, the key and what went wrong, instead of
// hanging it; and so that the store's own error ("We encountered an internal error") comes with its status, its code,
// the operation and the address it was asked at.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { BUILD_DEFAULTS } from '../../core/options.ts';
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
  get(key: string): Promise<Buffer | null>;
  /** Stores `body` under `key`; resolves with the ETag the store answered (quotes included, '' when it sent none). */
  put(key: string, body: Buffer, headers: UploadHeaders): Promise<string>;
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface StoreLimits {
  /** Longest wait for one try of one call, its body included, in milliseconds. */
  timeout: number;
  /** Tries of one call before the deploy fails; a refusal (4xx but a throttle) is not tried again. */
  attempts: number;
}

export const STORE_LIMITS: StoreLimits = { timeout: BUILD_DEFAULTS.storeTimeout, attempts: BUILD_DEFAULTS.storeAttempts };

/** A storage call that failed for good: what was asked, where, how often, and the last answer. */
export class StoreError extends Error {}

/** The body's MD5 as S3 and its look-alikes give it as the ETag of a single-part upload, quotes included. */
export function md5ETag(body: Buffer): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}

/** Without `credentials`, the SDK's chain finds them (environment variables, profiles, instance roles). */
export function s3Store(target: DeployTarget, credentials?: Credentials, limits: StoreLimits = STORE_LIMITS): ObjectStore {
  quietNodeVersionWarning();
  const client = new S3Client({
    credentials,
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: target.forcePathStyle,
    // Integrity is checked by the deploy against the store's ETag or a read-back, and Content-MD5 lets the store
    // refuse a body changed on the way; the SDK's default CRC32 trailers are rejected by several S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The tries are counted here (`call`), each with its own deadline.
    maxAttempts: 1,
  });
  const Bucket = target.bucket;
  const where = (key: string) => `s3://${Bucket}/${key}${target.endpoint ? ` at ${target.endpoint}` : ''}`;
  const call = <T>(operation: string, key: string, attempt: (signal: AbortSignal) => Promise<T>) =>
    withRetries(operation, where(key), limits, attempt);
  return {
    async list(prefix) {
      const found = new Map<string, StoredEntry>();
      let ContinuationToken: string | undefined;
      do {
        const page = await call('list', prefix, (abortSignal) => client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }), { abortSignal }));
        for (const o of page.Contents ?? []) found.set(o.Key!, { bytes: o.Size ?? 0, etag: o.ETag ?? '' });
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
    async get(key) {
      return call('download', key, async (abortSignal) => {
        try {
          const response = await client.send(new GetObjectCommand({ Bucket, Key: key }), { abortSignal });
          return Buffer.from(await response.Body!.transformToByteArray());
        } catch (e) {
          if (statusOf(e) === 404) return null;
          throw e;
        }
      });
    },
    async put(key, body, headers) {
      const response = await call('upload', key, (abortSignal) => client.send(new PutObjectCommand({
        Bucket,
        Key: key,
        Body: body,
        ContentMD5: Buffer.from(md5ETag(body).slice(1, -1), 'hex').toString('base64'),
        ContentType: headers.contentType,
        ContentEncoding: headers.contentEncoding,
        CacheControl: headers.cacheControl,
        Metadata: { sha256: headers.sha256 },
      }), { abortSignal }));
      return response.ETag ?? '';
    },
  };
}

/**
 * Runs `attempt` until it succeeds, each try cut at `limits.timeout` (the signal aborts the request and the reading of
 * its body), at most `limits.attempts` times, pausing 0.5, 1, 2 … s between tries. A refusal is final at once.
 */
export async function withRetries<T>(operation: string, where: string, limits: StoreLimits, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    const signal = AbortSignal.timeout(limits.timeout);
    try {
      // The race keeps the deadline even where a request would not heed its signal.
      return await Promise.race([attempt(signal), abandoned(signal)]);
    } catch (e) {
      const final = !retryable(e) && !signal.aborted;
      if (final || tried >= limits.attempts) {
        const tries = tried === 1 ? '' : ` (${tried} tries)`;
        throw new StoreError(`${operation} of ${where} failed${tries}: ${describeFailure(e, signal.aborted, limits.timeout)}`, { cause: e });
      }
      await sleep(Math.min(500 * 2 ** (tried - 1), 8_000));
    }
  }
}

function abandoned(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
}

function statusOf(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** A server error, a throttle, a body changed on the way, or no HTTP answer at all (network, timeout). */
function retryable(e: unknown): boolean {
  const status = statusOf(e);
  if (status === undefined) return true;
  return status >= 500 || status === 429 || status === 408 || (e as Error).name === 'BadDigest' || (e as Error).name === 'RequestTimeout';
}

function describeFailure(e: unknown, timedOut: boolean, timeout: number): string {
  if (timedOut) return `no answer within ${timeout / 1000} s`;
  const status = statusOf(e);
  const error = e as Error & { code?: string };
  if (status === undefined) return `${error.code ?? error.name}: ${error.message}`;
  const code = e instanceof S3ServiceException ? e.name : error.name;
  const said = error.message && error.message !== code && error.message !== 'UnknownError' ? ` "${error.message}"` : '';
  // The store's own failure: it alone can say why. s3rver is the common case when trying a deploy locally.
  const hint = status >= 500 ? '; the store failed on its side and its own log says why (s3rver fails every listing longer than one page unless it runs with NODE_OPTIONS=--openssl-legacy-provider: docs/operating.md, "A local trial")' : '';
  return `HTTP ${status} ${code}${said}${hint}`;
}

/**
 * The SDK warns on every run on a Node it will stop supporting (20 in 2027); the project names its own Node (22 or
 * newer, package.json's engines), and the lockfile fixes the SDK's version. The SDK's documented switch, unless the
 * operator set it.
 */
function quietNodeVersionWarning(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
