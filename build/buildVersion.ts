// The build from source bundle to published version: parse, assemble, precompute into a staging directory,
// then publish atomically. Any failure removes the staging directory and leaves the published version alone.
// The publish guard runs before anything is written, against the version `current` names.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assembleDirectory } from './assemble/assemble.ts';
import { DIRECTORY_FILE, makeManifest, MANIFEST_FILE, REPORT_FILE, type StoredFile } from '../core/manifest.ts';
import { diffDirectories } from './diff/diffDirectories.ts';
import { assertPublishable, type Drop, type GuardOptions } from './guard/guard.ts';
import { localPublished } from './guard/published.ts';
import { RANKING_FILE, warmingOrder } from '../core/ranking.ts';
import { indexDirectory } from '../core/directoryIndex.ts';
import { quotedCells } from '../core/table.ts';
import { PlaceIndex, SEARCH_FILE } from '../core/search/placeIndex.ts';
import { precomputedQuestions } from './precompute/questions.ts';
import { writeDocuments, writeTree } from './precompute/writeTree.ts';
import { versionDocuments } from './openapi/documents.ts';
import { createStaging, publish, pruneVersions } from './publish.ts';
import { buildReport, directoryCounts, type BuildReport } from './report.ts';
import { readBundle } from './sources/bundle.ts';
import { sha256 } from './precompute/encode.ts';
import { storePool } from './precompute/storePool.ts';
import { PhaseClock, type PhaseTimings } from './phases.ts';
import { BUILD_DEFAULTS } from '../core/options.ts';

export interface BuildOptions {
  source: string;
  out: string;
  /**
   * Versions this build made that are kept besides the current one (BUILD_DEFAULTS.keep); the one `current` named
   * before is kept whatever the number (build/publish.ts).
   */
  keep?: number;
  /** Worker threads that compress, hash and write the bodies (BUILD_DEFAULTS.threads). */
  threads?: number;
  onProgress?: (done: number, total: number) => void;
  /** Defaults to refusing drops of more than BUILD_DEFAULTS.maxDropPercent. */
  guard?: GuardOptions;
}

export interface BuildResult {
  version: string;
  outcome: 'published' | 'unchanged';
  report: BuildReport;
  removed: string[];
  /** Counts that fell past the guard's limit and were published anyway (--force). */
  forcedDrops: Drop[];
  /** Wall time of each phase; not in the report, so that two builds of one bundle write the same report. */
  timings: PhaseTimings;
}

export async function buildVersion(given: BuildOptions): Promise<BuildResult> {
  const options = { ...BUILD_DEFAULTS, ...given };
  const clock = new PhaseClock();
  // The published version first: a `current` the build could not replace stops it before any work.
  const published = await clock.time('read', () => localPublished(options.out));
  const bundle = await clock.time('read', () => readBundle(options.source));
  const { directory, facts, forcedDrops, diff, questions } = await clock.time('assemble', async () => {
    const { directory, facts } = assembleDirectory(bundle);
    const forcedDrops = assertPublishable(published?.counts ?? null, directoryCounts(directory, facts),
      options.guard ?? { maxDrop: BUILD_DEFAULTS.maxDropPercent, force: false });
    const diff = published ? diffDirectories(await published.directory(), directory) : null;
    return { directory, facts, forcedDrops, diff, questions: precomputedQuestions(directory) };
  });
  const staging = await createStaging(options.out);
  const pool = storePool(options.threads);
  try {
    const { entries, tables, objects, stats } = await writeTree(staging, directory, questions, { pool, clock, onProgress: options.onProgress });
    // The version's own files, then the switch: everything after the bodies is the publish phase.
    const { outcome, removed, report } = await clock.time('publish', async () => {
      const index = indexDirectory(directory);
      const search = PlaceIndex.build(directory.municipalities);
      const files = {
        [DIRECTORY_FILE]: await writeChecked(join(staging, DIRECTORY_FILE), Buffer.from(JSON.stringify(directory))),
        [SEARCH_FILE]: await writeChecked(join(staging, SEARCH_FILE), search.serialize()),
        [RANKING_FILE]: await writeChecked(join(staging, RANKING_FILE), Buffer.from(JSON.stringify(warmingOrder(entries, index)))),
      };
      // The documents describe the answers: their example of /healthz shows the id of the answers alone.
      const answersId = makeManifest(directory, entries, objects, files, tables).build_id;
      await writeDocuments(staging, directory.stand_quelle, await versionDocuments(index, answersId, search), { entries, objects, stats });
      const report = buildReport(directory, facts, stats, questions.length, bundle.files, diff, quotedCells(index));
      const manifest = makeManifest(directory, entries, objects, files, tables);
      await writeFile(join(staging, REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
      // The manifest goes last: a version directory with a manifest is a complete one.
      await writeFile(join(staging, MANIFEST_FILE), JSON.stringify(manifest));
      const { outcome, replaced } = await publish(options.out, staging, directory.stand_quelle, manifest.build_id);
      return { outcome, report, removed: await pruneVersions(options.out, options.keep, replaced) };
    });
    return { version: directory.stand_quelle, outcome, report, removed, forcedDrops, timings: clock.timings };
  } finally {
    await pool.destroy();
    await rm(staging, { recursive: true, force: true });
  }
}

async function writeChecked(path: string, data: Buffer): Promise<StoredFile> {
  await writeFile(path, data);
  return { bytes: data.length, sha256: sha256(data) };
}
