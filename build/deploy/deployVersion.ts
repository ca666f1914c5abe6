// Uploads a built version to object storage as `<prefix>/<version>/<path>` and then switches
// `<prefix>/current` to it. Files the bucket already holds with the same content are skipped, so a deploy
// that was interrupted resumes where it stopped. What the store holds is judged by what the store says of its
// bytes (the ETag, the MD5 of a single-part upload) or by reading them back, never by metadata a deploy wrote: a
// store or gateway that changed bytes on the way is found by the upload that sent them and by every later deploy.
// The pointer is written only once every file of the version is verified and listed in place, so a reader never
// follows it into a half-uploaded or damaged version.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { CURRENT, Manifest, MANIFEST_FILE, REPORT_FILE } from '../../core/manifest.ts';
import { assertPublishable, GuardCounts, type Drop, type GuardOptions } from '../guard/guard.ts';
import { sha256 } from '../precompute/encode.ts';
import { currentVersion } from '../publish.ts';
import { bucketPublished } from './bucketPublished.ts';
import { pointerHeaders, versionFileHeaders, type UploadHeaders } from './headers.ts';
import { md5ETag, type ObjectStore, type StoredEntry } from './objectStore.ts';
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
    const tally = await holds(store, key, body, stored.get(key)) ? skipped : uploaded;
    if (tally === uploaded && !options.dryRun) await putVerified(store, target, key, body, versionFileHeaders(path, sha256(body)));
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

  if (!options.dryRun) await confirmListed(store, target, version, versionDir, phases.flat());
  if (published?.version !== version && !options.dryRun) {
    const body = Buffer.from(version, 'utf8');
    await putVerified(store, target, keyOf(target, CURRENT), body, pointerHeaders(sha256(body)));
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
 * Whether the store holds exactly `body` under `key`: same size and an ETag that is the body's MD5 (what S3 and its
 * look-alikes give a single-part upload), or, for any other ETag (multipart uploads, some kinds of server-side
 * encryption, a store that changed the bytes), the bytes read back.
 */
async function holds(store: ObjectStore, key: string, body: Buffer, entry: StoredEntry | undefined): Promise<boolean> {
  if (entry === undefined || entry.bytes !== body.length) return false;
  if (entry.etag === md5ETag(body)) return true;
  return (await store.get(key))?.equals(body) ?? false;
}

/** Uploads of one file that the store kept wrong before the deploy gives up. */
const UPLOADS = 3;

/** Uploads `body` and checks what the store kept: its ETag, else the bytes read back; a wrong copy is uploaded again. */
async function putVerified(store: ObjectStore, target: DeployTarget, key: string, body: Buffer, headers: UploadHeaders): Promise<void> {
  const sent = md5ETag(body);
  for (let uploads = 1; ; uploads++) {
    const etag = await store.put(key, body, headers);
    if (etag === sent) return;
    const back = await store.get(key);
    if (back?.equals(body)) return;
    if (uploads >= UPLOADS) {
      const kept = back === null ? 'nothing' : `${back.length} bytes with the MD5 "${md5ETag(back).slice(1, -1)}"`;
      throw new Error(`s3://${target.bucket}/${key}: the store kept other bytes than were sent, ${uploads} times `
        + `(sent ${body.length} bytes with the MD5 ${sent}; it answered the ETag ${etag || '(none)'} and holds ${kept}): `
        + 'a store or something between it and this machine changes what it is given; current was not moved');
    }
  }
}

/** One listing after the uploads: every file of the version is there with its size, before the pointer moves. */
async function confirmListed(store: ObjectStore, target: DeployTarget, version: string, versionDir: string, paths: string[]): Promise<void> {
  const listed = await store.list(`${keyOf(target, version)}/`);
  for (const path of paths) {
    const bytes = (await stat(join(versionDir, path))).size;
    const entry = listed.get(keyOf(target, version, path));
    if (entry?.bytes !== bytes) {
      throw new Error(`${describeTarget(target, version, path)}: ${entry === undefined ? 'missing' : `${entry.bytes} bytes instead of ${bytes}`} `
        + 'in the listing after the upload; current was not moved');
    }
  }
}
