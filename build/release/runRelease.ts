// The monthly release as one command: fetch the sources, build, check the new month's data by what holds for
// any month (check, build/release/checkData.ts), check the new version against the published one (guard), show
// what changed (diff) and deploy. Each step prints one line; the first that fails stops the release.
// "Published" is what the deploy target serves, or without a target what the dist directory's `current` named
// before this build.
import { buildVersion } from '../buildVersion.ts';
import { bucketPublished } from '../deploy/bucketPublished.ts';
import { describeDeploy } from '../deploy/describe.ts';
import { deployVersion } from '../deploy/deployVersion.ts';
import { s3Store, type StoreLimits } from '../deploy/objectStore.ts';
import { TARGET_HELP, type DeployTarget } from '../deploy/target.ts';
import { diffDirectories } from '../diff/diffDirectories.ts';
import { formatDiff, summarizeDiff } from '../diff/formatDiff.ts';
import { assertPublishable, countChanges, describeDrops, type GuardCounts, type GuardOptions } from '../guard/guard.ts';
import { localPublished, type PublishedVersion } from '../guard/published.ts';
import { readBundle } from '../sources/bundle.ts';
import { checkData } from './checkData.ts';
import { fetchSources, type SourceConfig } from './fetchSources.ts';
import type { ReleaseStep } from './steps.ts';

export interface ReleaseOptions {
  source: string;
  dist: string;
  steps: readonly ReleaseStep[];
  /** Fetch nothing and write nothing to the target; the build still writes into `dist`. */
  dryRun: boolean;
  sources: SourceConfig;
  /** Longest time one download of `fetch` may take, in milliseconds. */
  fetchTimeout: number;
  target: DeployTarget | null;
  uploadConcurrency: number;
  /** The deadline and tries of each storage call. */
  storeLimits: StoreLimits;
  guard: GuardOptions;
  log: (line: string) => void;
  /** Reports the progress of the long steps (build, deploy) under `label`. */
  progress?: (label: string) => { update: (done: number, total: number) => void; stop: () => void };
  /** Receives the full text of the diff, for a CI job summary. */
  onDiff?: (text: string) => Promise<void>;
}

export async function runRelease(o: ReleaseOptions): Promise<void> {
  const store = o.target ? s3Store(o.target, undefined, o.storeLimits) : null;
  const run = (step: ReleaseStep, action: () => Promise<string>) => o.steps.includes(step) ? logged(o.log, step, action) : Promise.resolve();

  await run('fetch', async () => {
    const urls = o.sources.files.map((f) => f.url).join(', ');
    if (o.dryRun) return `skipped (dry run); would fetch ${urls}`;
    const fetched = await fetchSources(o.source, o.sources, { timeout: o.fetchTimeout });
    const warnings = fetched.flatMap((f) => f.warnings);
    return `${fetched.length} files fetched, ${fetched.filter((f) => f.changed).length} changed (${fetched.map((f) => `${f.kind} ${f.date}`).join(', ')})`
      + (warnings.length > 0 ? `; warning: ${warnings.join('; ')}` : '');
  });

  // Read before the build, which moves the dist directory's `current`.
  const compares = o.steps.includes('check') || o.steps.includes('guard') || o.steps.includes('diff');
  const published = !compares ? null
    : store && o.target ? await bucketPublished(store, o.target)
    : o.steps.includes('build') ? await localPublished(o.dist) : null;

  await run('build', async () => {
    const result = await withProgress(o, 'build: precomputing answers', (onProgress) => buildVersion({ source: o.source, out: o.dist, guard: o.guard, onProgress }));
    return `${result.version} ${result.outcome} in ${o.dist} (${result.report.files} files, ${(result.report.bytes / 1e6).toFixed(1)} MB)`;
  });

  const candidate = await localPublished(o.dist);
  if (candidate === null && o.steps.some((s) => s !== 'fetch')) throw new Error(`${o.dist} has no current version to release`);
  const against = (action: (base: PublishedVersion, next: PublishedVersion) => Promise<string>) => async () =>
    published === null ? 'skipped: no published version to compare with' : action(published, candidate!);

  await run('check', async () => {
    const { problems, outOfBounds, summary } = checkData({
      directory: await candidate!.directory(),
      counts: candidate!.counts,
      gv100ad: (await readBundle(o.source)).gv100ad,
      published: published?.counts ?? null,
      maxChange: o.guard.maxDrop,
    });
    const failed = [...problems, ...(o.guard.force ? [] : outOfBounds)];
    if (failed.length > 0) throw new Error(`the data checks failed for ${candidate!.version}: ${failed.join('; ')}`);
    const forced = o.guard.force && outOfBounds.length > 0 ? ` (passed by --force: ${outOfBounds.join('; ')})` : '';
    return `passed for ${candidate!.version}: ${summary}${forced}`;
  });

  await run('guard', against(async (base, next) => {
    const drops = assertPublishable(base.counts, next.counts, o.guard);
    const counts = describeCounts(base.counts, next.counts);
    return `${drops.length > 0 ? `passed by --force (${describeDrops(drops, o.guard.maxDrop)})` : 'passed'} against ${base.version} at ${base.where}: ${counts}`;
  }));

  await run('diff', against(async (base, next) => {
    const diff = diffDirectories(await base.directory(), await next.directory());
    await o.onDiff?.(formatDiff(diff));
    return `${base.version} → ${next.version}: ${summarizeDiff(diff)}`;
  }));

  await run('deploy', async () => {
    const target = o.target;
    if (store === null || target === null) return `skipped: no target configured (${TARGET_HELP})`;
    const result = await withProgress(o, `deploy: ${o.dryRun ? 'comparing' : 'uploading'} files`, (onProgress) => deployVersion(store, {
      dist: o.dist, version: candidate!.version, target, concurrency: o.uploadConcurrency, guard: o.guard, dryRun: o.dryRun, onProgress,
    }));
    return describeDeploy(result, o.dryRun);
  });
}

/** Each count the guard compares, before and after: `municipalities 10953 → 10950, …, cross_check 99.7% → 99.8%`. */
function describeCounts(before: GuardCounts, after: GuardCounts): string {
  const counts = countChanges(before, after).map((c) => `${c.count} ${c.before} → ${c.after}`);
  const agreement = (counts: GuardCounts) => (counts.cross_check ? `${counts.cross_check.agreement_percent}%` : 'none');
  if (before.cross_check || after.cross_check) counts.push(`cross_check ${agreement(before)} → ${agreement(after)}`);
  return counts.join(', ');
}

async function withProgress<T>(o: ReleaseOptions, label: string, step: (onProgress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
  const progress = o.progress?.(label);
  try {
    return await step((done, total) => progress?.update(done, total));
  } finally {
    progress?.stop();
  }
}

async function logged(log: (line: string) => void, step: ReleaseStep, action: () => Promise<string>): Promise<void> {
  try {
    log(`${step}: ${await action()}`);
  } catch (e) {
    log(`${step}: failed`);
    throw e;
  }
}
