// Atomic publishing of a version: the tree is written into a staging directory beside the published ones,
// renamed into place, and `current` is switched by renaming a new symlink over the old one. Readers
// therefore see either the old version or the new one, and a build that dies before the switch leaves the
// published version as it was. A version replaced by a build of the same name is kept beside the others until
// the next build starts, since a proxy serving it reads its bodies until it has loaded the new one.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT, MANIFEST_FILE, RETIRED_PREFIX, retiredPrefix } from '../core/manifest.ts';

const STAGING_PREFIX = '.staging-';

/** A fresh staging directory; leftovers of builds that died are removed first. */
export async function createStaging(outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) {
    const pid = Number(name.startsWith(STAGING_PREFIX) ? name.slice(STAGING_PREFIX.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && !processAlive(pid)) await rm(join(outDir, name), { recursive: true, force: true });
    if (name.startsWith(RETIRED_PREFIX)) await rm(join(outDir, name), { recursive: true, force: true });
  }
  const staging = join(outDir, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(staging);
  return staging;
}

/**
 * Moves the staged tree to `<outDir>/<version>` and points `current` at it. A version that is already
 * published with the same build id is kept as it is (its files are what the staging holds).
 */
export async function publish(outDir: string, staging: string, version: string, buildId: string): Promise<'published' | 'unchanged'> {
  const target = join(outDir, version);
  const existing = await buildIdOf(target);
  let outcome: 'published' | 'unchanged' = 'published';
  if (existing === buildId) {
    await rm(staging, { recursive: true, force: true });
    outcome = 'unchanged';
  } else {
    if (existing !== null) await rename(target, join(outDir, `${retiredPrefix(version)}${randomBytes(4).toString('hex')}`));
    await rename(staging, target);
  }
  await pointCurrentAt(outDir, version);
  return outcome;
}

export async function pointCurrentAt(outDir: string, version: string): Promise<void> {
  const link = join(outDir, `.${CURRENT}-${randomBytes(4).toString('hex')}`);
  await symlink(version, link);
  await rename(link, join(outDir, CURRENT));
}

/** The version `current` names, or null before the first publish. */
export async function currentVersion(outDir: string): Promise<string | null> {
  try {
    return await readlink(join(outDir, CURRENT));
  } catch {
    return null;
  }
}

/** Removes published versions beyond the newest `keep` (by name, which sorts by date), never the current one. */
export async function pruneVersions(outDir: string, keep: number): Promise<string[]> {
  const current = await currentVersion(outDir);
  const versions = (await publishedVersions(outDir)).sort().reverse();
  const removed = versions.slice(keep).filter((v) => v !== current);
  for (const v of removed) await rm(join(outDir, v), { recursive: true, force: true });
  return removed;
}

export async function publishedVersions(outDir: string): Promise<string[]> {
  const names = await readdir(outDir, { withFileTypes: true });
  return names.filter((d) => d.isDirectory() && /^\d{8}_\d{4}$/.test(d.name)).map((d) => d.name);
}

async function buildIdOf(versionDir: string): Promise<string | null> {
  try {
    return (JSON.parse(await readFile(join(versionDir, MANIFEST_FILE), 'utf8')) as { build_id?: string }).build_id ?? null;
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
