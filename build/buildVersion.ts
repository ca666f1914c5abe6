// The build from source bundle to published version: parse, assemble, precompute into a staging directory,
// then publish atomically. Any failure removes the staging directory and leaves the published version alone.
// The publish guard runs before anything is written, against the version `current` names.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assembleDirectory } from './assemble/assemble.ts';
import { BUILD_DEFAULTS } from './buildDefaults.ts';
import { DIRECTORY_FILE, makeManifest, MANIFEST_FILE, REPORT_FILE, type StoredFile } from '../core/manifest.ts';
import { diffDirectories } from './diff/diffDirectories.ts';
import { DEFAULT_MAX_DROP_PERCENT } from './guard/defaults.ts';
import { assertPublishable, type Drop, type GuardOptions } from './guard/guard.ts';
import { localPublished } from './guard/published.ts';
import { RANKING_FILE, warmingOrder } from '../core/ranking.ts';
import { indexDirectory } from '../core/directoryIndex.ts';
import { PlaceIndex, SEARCH_FILE } from '../core/search/placeIndex.ts';
import { precomputedQuestions } from './precompute/questions.ts';
import { writeTree } from './precompute/writeTree.ts';
import { createStaging, publish, pruneVersions } from './publish.ts';
import { buildReport, directoryCounts, type BuildReport } from './report.ts';
import { readBundle } from './sources/bundle.ts';
import { sha256 } from './precompute/encode.ts';

export interface BuildOptions {
  source: string;
  out: string;
  /** Published versions kept besides the current one (BUILD_DEFAULTS.keep). */
  keep?: number;
  /** Bodies compressed at once (BUILD_DEFAULTS.concurrency). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** Defaults to refusing drops of more than DEFAULT_MAX_DROP_PERCENT. */
  guard?: GuardOptions;
}

export interface BuildResult {
  version: string;
  outcome: 'published' | 'unchanged';
  report: BuildReport;
  removed: string[];
  /** Counts that fell past the guard's limit and were published anyway (--force). */
  forcedDrops: Drop[];
}

export async function buildVersion(given: BuildOptions): Promise<BuildResult> {
  const options = { ...BUILD_DEFAULTS, ...given };
  const bundle = await readBundle(options.source);
  const { directory, facts } = assembleDirectory(bundle);
  const published = await localPublished(options.out);
  const forcedDrops = assertPublishable(published?.counts ?? null, directoryCounts(directory, facts),
    options.guard ?? { maxDrop: DEFAULT_MAX_DROP_PERCENT, force: false });
  const diff = published ? diffDirectories(await published.directory(), directory) : null;
  const staging = await createStaging(options.out);
  try {
    const questions = precomputedQuestions(directory);
    const { entries, csv, objects, stats } = await writeTree(staging, directory, questions, options);
    const report = buildReport(directory, facts, stats, questions.length, bundle.files, diff);
    const files = {
      [DIRECTORY_FILE]: await writeChecked(join(staging, DIRECTORY_FILE), Buffer.from(JSON.stringify(directory))),
      [SEARCH_FILE]: await writeChecked(join(staging, SEARCH_FILE), PlaceIndex.build(directory.municipalities).serialize()),
      [RANKING_FILE]: await writeChecked(join(staging, RANKING_FILE), Buffer.from(JSON.stringify(warmingOrder(entries, indexDirectory(directory))))),
    };
    const manifest = makeManifest(directory, entries, objects, files, csv);
    await writeFile(join(staging, REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
    // The manifest goes last: a version directory with a manifest is a complete one.
    await writeFile(join(staging, MANIFEST_FILE), JSON.stringify(manifest));
    const outcome = await publish(options.out, staging, directory.stand_quelle, manifest.build_id);
    const removed = await pruneVersions(options.out, options.keep + 1);
    return { version: directory.stand_quelle, outcome, report, removed, forcedDrops };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function writeChecked(path: string, data: Buffer): Promise<StoredFile> {
  await writeFile(path, data);
  return { bytes: data.length, sha256: sha256(data) };
}
