// The version a bucket serves: the one its `current` pointer names, with that version's report (for the
// guard) and directory (for the release diff).
import { CURRENT, DIRECTORY_FILE, REPORT_FILE } from '../../core/manifest.ts';
import { Directory } from '../../core/model.ts';
import { GuardCounts } from '../guard/guard.ts';
import type { PublishedVersion } from '../guard/published.ts';
import type { ObjectStore } from './objectStore.ts';
import { describeTarget, keyOf, type DeployTarget } from './target.ts';

export async function bucketPublished(store: ObjectStore, target: DeployTarget): Promise<PublishedVersion | null> {
  const pointer = await store.get(keyOf(target, CURRENT));
  if (pointer === null) return null;
  const version = pointer.toString('utf8').trim();
  const where = describeTarget(target, version);
  const json = async (file: string): Promise<unknown> => {
    const body = await store.get(keyOf(target, version, file));
    if (body === null) throw new Error(`${describeTarget(target, CURRENT)} names ${version}, but ${where}/${file} is missing`);
    return JSON.parse(body.toString('utf8'));
  };
  return {
    version,
    where,
    counts: GuardCounts.parse(await json(REPORT_FILE)),
    directory: async () => Directory.parse(await json(DIRECTORY_FILE)),
  };
}
