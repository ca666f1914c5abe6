// The build from source bundle to published version: parse, assemble, precompute into a staging directory,
// then publish atomically. Any failure removes the staging directory and leaves the published version alone.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assembleDirectory } from './assemble/assemble.ts';
import { DIRECTORY_FILE, MANIFEST_FILE, REPORT_FILE } from './core/manifest.ts';
import { precomputedQuestions } from './precompute/questions.ts';
import { writeTree } from './precompute/writeTree.ts';
import { createStaging, publish, pruneVersions } from './publish.ts';
import { buildReport, type BuildReport } from './report.ts';
import { readBundle } from './sources/bundle.ts';

export interface BuildOptions {
  source: string;
  out: string;
  /** Published versions kept besides the current one. */
  keep: number;
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
}

export interface BuildResult {
  version: string;
  outcome: 'published' | 'unchanged';
  report: BuildReport;
  removed: string[];
}

export async function buildVersion(options: BuildOptions): Promise<BuildResult> {
  const bundle = await readBundle(options.source);
  const { directory, facts } = assembleDirectory(bundle);
  const staging = await createStaging(options.out);
  try {
    const questions = precomputedQuestions(directory);
    const { manifest, stats } = await writeTree(staging, directory, questions, options);
    const report = buildReport(directory, facts, stats, questions.length, bundle.files);
    await writeFile(join(staging, DIRECTORY_FILE), JSON.stringify(directory));
    await writeFile(join(staging, REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
    // The manifest goes last: a version directory with a manifest is a complete one.
    await writeFile(join(staging, MANIFEST_FILE), JSON.stringify(manifest));
    const outcome = await publish(options.out, staging, directory.stand_quelle, manifest.build_id);
    const removed = await pruneVersions(options.out, options.keep + 1);
    return { version: directory.stand_quelle, outcome, report, removed };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
