// The version a new one is compared with (by the guard and the diff): what a dist directory's `current`
// names, or what a bucket's `current` names (build/deploy/bucketPublished.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT, DIRECTORY_FILE, REPORT_FILE } from '../../core/manifest.ts';
import { Directory } from '../../core/model.ts';
import { currentVersion } from '../publish.ts';
import { GuardCounts } from './guard.ts';

export interface PublishedVersion {
  version: string;
  /** Where it is published, for messages: a path or an s3:// address. */
  where: string;
  counts: GuardCounts;
  /** Loaded on demand: the deploy guard needs only the counts. */
  directory: () => Promise<Directory>;
}

export async function localPublished(outDir: string): Promise<PublishedVersion | null> {
  const version = await currentVersion(outDir);
  if (version === null) return null;
  const versionDir = join(outDir, version);
  let report: string;
  try {
    report = await readFile(join(versionDir, REPORT_FILE), 'utf8');
  } catch (e) {
    throw new Error(`${join(outDir, CURRENT)} names ${version}, but ${join(versionDir, REPORT_FILE)} cannot be read `
      + `(${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): point it at a published version, so that the guard has something to compare with`);
  }
  return {
    version,
    where: versionDir,
    counts: GuardCounts.parse(JSON.parse(report)),
    directory: async () => Directory.parse(JSON.parse(await readFile(join(versionDir, DIRECTORY_FILE), 'utf8'))),
  };
}
