// Atomic publishing of a version: the tree is written into a staging directory beside the published ones,
// renamed into place, and `current` is switched by renaming a new symlink over the old one. Readers
// therefore see either the old version or the new one, and a build that dies before the switch leaves the
// published version as it was. A version replaced by a build of the same name is kept beside the others until
// the next build starts, since a proxy serving it reads its bodies until it has loaded the new one; for the
// same reason pruning never removes the version `current` named before the switch.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT, Manifest, MANIFEST_FILE, RETIRED_PREFIX, retiredPrefix } from '../core/manifest.ts';

const STAGING_PREFIX = '.staging-';
/** A new `current` link before it is renamed over the old one; named by the build's pid like the staging. */
const LINK_PREFIX = `.${CURRENT}-`;

/** A fresh staging directory; leftovers of builds that died are removed first. */
export async function createStaging(outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) {
    const prefix = [STAGING_PREFIX, LINK_PREFIX].find((p) => name.startsWith(p));
    const pid = Number(prefix ? name.slice(prefix.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && !processAlive(pid)) await rm(join(outDir, name), { recursive: true, force: true });
    if (name.startsWith(RETIRED_PREFIX)) await rm(join(outDir, name), { recursive: true, force: true });
  }
  const staging = join(outDir, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(staging);
  return staging;
}

export interface Published {
  outcome: 'published' | 'unchanged';
  /** The version `current` named before the switch (null on the first publish): a proxy serves it until it has switched. */
  replaced: string | null;
}

/**
 * Moves the staged tree to `<outDir>/<version>` and points `current` at it. A version that is already
 * published with the same build id is kept as it is (its files are what the staging holds).
 */
export async function publish(outDir: string, staging: string, version: string, buildId: string): Promise<Published> {
  const target = join(outDir, version);
  const existing = await buildIdOf(target);
  let outcome: Published['outcome'] = 'published';
  if (existing === buildId) {
    await rm(staging, { recursive: true, force: true });
    outcome = 'unchanged';
  } else {
    if (existing !== null) await rename(target, join(outDir, `${retiredPrefix(version)}${randomBytes(4).toString('hex')}`));
    await rename(staging, target);
  }
  const replaced = await currentVersion(outDir);
  await pointCurrentAt(outDir, version);
  return { outcome, replaced };
}

export async function pointCurrentAt(outDir: string, version: string): Promise<void> {
  const link = join(outDir, `${LINK_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await symlink(version, link);
  await rename(link, join(outDir, CURRENT));
}

/**
 * The version `current` names, or null before the first publish. A `current` that is not a symbolic link (a tree
 * copied over it, `cp -r` instead of `cp -a`) is refused: the guard and the diff could not tell what is published,
 * and the switch, a rename of a new link over the old one, cannot replace a directory.
 */
export async function currentVersion(outDir: string): Promise<string | null> {
  const link = join(outDir, CURRENT);
  try {
    return await readlink(link);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
  }
  const kind = (await lstat(link)).isDirectory() ? 'a directory' : 'a file';
  const holds = await versionOf(link);
  const fix = holds === null
    ? `move it aside and point ${CURRENT} at a published version (ln -s <version> ${link})`
    : `it holds ${holds}: mv ${link} ${join(outDir, holds)} && ln -s ${holds} ${link}`;
  throw new Error(`${link} is ${kind}, not a symbolic link: a build switches versions by replacing the link `
    + `and compares with the version it names; ${fix}, then run again`);
}

/**
 * Removes versions the build made beyond the newest `keep` besides the current one. Never removed: the version
 * `current` names, the one it named before this build's switch (`replaced`: a proxy serves it until it has loaded
 * the new one), and any directory that is not a complete version of a build (one without a manifest the build
 * wrote for that name), which is neither counted nor touched.
 */
export async function pruneVersions(outDir: string, keep: number, replaced: string | null): Promise<string[]> {
  const current = await currentVersion(outDir);
  const others = (await publishedVersions(outDir)).filter((v) => v !== current).sort().reverse();
  const removed = others.slice(keep).filter((v) => v !== replaced);
  for (const v of removed) await rm(join(outDir, v), { recursive: true, force: true });
  return removed;
}

/** The complete versions a build made: directories named like a version whose manifest names that version. */
export async function publishedVersions(outDir: string): Promise<string[]> {
  const names = await readdir(outDir, { withFileTypes: true });
  const candidates = names.filter((d) => d.isDirectory() && VERSION_NAME.test(d.name)).map((d) => d.name);
  const made = await Promise.all(candidates.map(async (name) => (await versionOf(join(outDir, name))) === name));
  return candidates.filter((_, i) => made[i]);
}

const VERSION_NAME = /^\d{8}_\d{4}$/;
/** What the build's manifest says of its version; the manifest is written last, so a version with one is complete. */
const ManifestHead = Manifest.pick({ format: true, stand_quelle: true, build_id: true });

async function versionOf(versionDir: string): Promise<string | null> {
  return (await manifestHead(versionDir))?.stand_quelle ?? null;
}

async function buildIdOf(versionDir: string): Promise<string | null> {
  return (await manifestHead(versionDir))?.build_id ?? null;
}

async function manifestHead(versionDir: string): Promise<{ stand_quelle: string; build_id: string } | null> {
  try {
    const parsed = ManifestHead.safeParse(JSON.parse(await readFile(join(versionDir, MANIFEST_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
