// Uploads a built version to object storage as `<prefix>/<version>/<path>` and then switches
// `<prefix>/current` to it. Files the bucket already holds with the same content are skipped, so a deploy
// that was interrupted resumes where it stopped; the pointer is written only once every file of the
// version is in place, so a reader never follows it into a half-uploaded version.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { CURRENT, Manifest, MANIFEST_FILE, REPORT_FILE } from '../../core/manifest.ts';
import { assertPublishable, GuardCounts, type Drop, type GuardOptions } from '../guard/guard.ts';
import { sha256 } from '../precompute/encode.ts';
import { currentVersion } from '../publish.ts';
import { bucketPublished } from './bucketPublished.ts';
import { pointerHeaders, versionFileHeaders } from './headers.ts';
import type { ObjectStore, StoredEntry } from './objectStore.ts';
import { describeTarget, keyOf, type DeployTarget } from './target.ts';
import { versionFiles } from './versionFiles.ts';

export interface DeployOptions {
  dist: string;
  /** Defaults to the version the dist directory's `current` names. */
  version?: string;
  target: DeployTarget;
  concurrency: number;
  guard: GuardOptions;
  /** Compare with the bucket and count, but write nothing. */
  dryRun: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface Tally {
  files: number;
  bytes: number;
}

export interface DeployResult {
  version: string;
  /** The version's address in the bucket. */
  where: string;
  uploaded: Tally;
  skipped: Tally;
  /** The version `current` named before; equal to `version` when the pointer was left as it was. */
  previous: string | null;
  forcedDrops: Drop[];
}

export async function deployVersion(store: ObjectStore, options: DeployOptions): Promise<DeployResult> {
  const { target } = options;
  const version = options.version ?? await currentVersion(options.dist);
  if (version === null) throw new Error(`${options.dist} has no current version: build one first or name it with --version`);
  const versionDir = join(options.dist, version);
  const phases = await versionFiles(versionDir);

  await refuseAnotherBuild(store, target, version, versionDir);
  const published = await bucketPublished(store, target);
  const counts = GuardCounts.parse(JSON.parse(await readFile(join(versionDir, REPORT_FILE), 'utf8')));
  const forcedDrops = assertPublishable(published?.counts ?? null, counts, options.guard);

  const stored = await store.list(`${keyOf(target, version)}/`);
  const uploaded: Tally = { files: 0, bytes: 0 };
  const skipped: Tally = { files: 0, bytes: 0 };
  const total = phases.reduce((n, phase) => n + phase.length, 0);
  const limit = pLimit(options.concurrency);

  const sync = async (path: string) => {
    const key = keyOf(target, version, path);
    const body = await readFile(join(versionDir, path));
    const digest = sha256(body);
    const tally = await alreadyStored(store, key, body, digest, stored.get(key)) ? skipped : uploaded;
    if (tally === uploaded && !options.dryRun) await store.put(key, body, versionFileHeaders(path, digest));
    tally.files++;
    tally.bytes += body.length;
    options.onProgress?.(uploaded.files + skipped.files, total);
  };
  for (const phase of phases) {
    try {
      await Promise.all(phase.map((path) => limit(() => sync(path))));
    } catch (e) {
      // Stop at the first failure: what is queued would only fail the same way, and the pointer must not move.
      limit.clearQueue();
      throw e;
    }
  }

  if (published?.version !== version && !options.dryRun) {
    const body = Buffer.from(version, 'utf8');
    await store.put(keyOf(target, CURRENT), body, pointerHeaders(sha256(body)));
  }
  return { version, where: describeTarget(target, version), uploaded, skipped, previous: published?.version ?? null, forcedDrops };
}

/**
 * A version the bucket already holds from another build is refused: its files are served as immutable, and the
 * full collection's ETag names the version alone, so callers and caches would keep the old answers under the same
 * name (docs/data.md, rule 7). The same build is a deploy that resumes, or one done again.
 */
async function refuseAnotherBuild(store: ObjectStore, target: DeployTarget, version: string, versionDir: string): Promise<void> {
  const stored = await store.get(keyOf(target, version, MANIFEST_FILE));
  if (stored === null) return;
  const buildId = (manifest: Buffer) => BuildId.parse(JSON.parse(manifest.toString('utf8'))).build_id;
  const [theirs, ours] = [buildId(stored), buildId(await readFile(join(versionDir, MANIFEST_FILE)))];
  if (theirs === ours) return;
  throw new Error(`${describeTarget(target, version)} holds another build of ${version} (build ${theirs.slice(0, 12)}, this one `
    + `${ours.slice(0, 12)}): a version once deployed keeps its answers; a change of the curated files goes out with the next version`);
}

const BuildId = Manifest.pick({ build_id: true });

/**
 * Same size and an ETag that is the body's MD5 (what S3 and its look-alikes give a single-part upload) means
 * same content. Any other ETag (multipart uploads, some kinds of server-side encryption) is not an MD5, so
 * the sha256 this deploy stores in the metadata decides.
 */
async function alreadyStored(store: ObjectStore, key: string, body: Buffer, digest: string, entry: StoredEntry | undefined): Promise<boolean> {
  if (entry === undefined || entry.bytes !== body.length) return false;
  if (entry.etag === `"${createHash('md5').update(body).digest('hex')}"`) return true;
  return await store.sha256Of(key) === digest;
}
