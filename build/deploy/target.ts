// Where a deploy goes: an S3-compatible bucket and a key prefix in it, from flags or from the environment
// variables the AWS tools use (credentials are left to the SDK's own chain: AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, profiles).
import { z } from 'zod';

export const DeployTarget = z.object({
  /** Undefined: AWS itself, resolved by the SDK from the region. */
  endpoint: z.url().optional(),
  bucket: z.string().min(1),
  /** Without leading or trailing slashes; empty for the bucket's root. */
  prefix: z.string().regex(/^(?:[^/]+(?:\/[^/]+)*)?$/, 'no leading, trailing or double slashes'),
  region: z.string().min(1),
  /**
   * Path-style addressing (endpoint/bucket/key) for every endpoint but AWS's own: MinIO, Ceph, R2, s3rver and
   * most other S3-compatible servers do not resolve bucket subdomains.
   */
  forcePathStyle: z.boolean(),
});
export type DeployTarget = z.infer<typeof DeployTarget>;

export interface TargetFlags {
  endpoint?: string;
  bucket?: string;
  prefix?: string;
  region?: string;
}

/** The region AWS's tools assume when none is set; S3-compatible servers mostly ignore it. */
const DEFAULT_REGION = 'us-east-1';

/** Null when no bucket is configured: a release then skips its deploy step. */
export function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv = process.env): DeployTarget | null {
  const bucket = flags.bucket ?? env.FINANZAMT_BUCKET;
  if (!bucket) return null;
  const endpoint = flags.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  return DeployTarget.parse({
    endpoint,
    bucket,
    prefix: (flags.prefix ?? env.FINANZAMT_PREFIX ?? '').replace(/^\/+|\/+$/g, ''),
    region: flags.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? DEFAULT_REGION,
    forcePathStyle: endpoint !== undefined && !/\.amazonaws\.com(?:\.cn)?(?::\d+)?(?:\/|$)/.test(endpoint),
  });
}

/** The key of a file below the target's prefix. */
export function keyOf(target: DeployTarget, ...parts: string[]): string {
  return [target.prefix, ...parts].filter((part) => part !== '').join('/');
}

export function describeTarget(target: DeployTarget, ...parts: string[]): string {
  return `s3://${target.bucket}/${keyOf(target, ...parts)}`;
}

export const TARGET_HELP = 'bucket from --bucket or FINANZAMT_BUCKET, endpoint from --endpoint, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL';
