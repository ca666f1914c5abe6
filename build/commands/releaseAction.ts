// What `finanzamt release` runs (its options are in release.ts).
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTarget } from '../deploy/target.ts';
import { readSourceConfig } from '../release/fetchSources.ts';
import { runRelease } from '../release/runRelease.ts';
import type { DeployFlags } from '../deploy/options.ts';
import type { ReleaseStep } from '../release/steps.ts';
import { BUILD_DEFAULTS } from '../../core/options.ts';
import { progressBar } from './progress.ts';

/** The options as commander hands them over (release.ts). */
export interface ReleaseCommandOptions extends DeployFlags {
  source: string;
  sources: string;
  fetchTimeout: number;
  dist?: string;
  steps: ReleaseStep[];
  dryRun: boolean;
  diffOut?: string;
  maxDrop: number;
  force: boolean;
}

export async function release(opts: ReleaseCommandOptions): Promise<void> {
  const dist = opts.dist ?? await mkdtemp(join(tmpdir(), 'finanzamt-release-'));
  try {
    await runRelease({
      source: opts.source,
      dist,
      steps: opts.steps,
      dryRun: opts.dryRun,
      sources: readSourceConfig(opts.sources),
      fetchTimeout: opts.fetchTimeout,
      target: resolveTarget(opts),
      uploadConcurrency: opts.concurrency,
      storeLimits: { timeout: opts.storeTimeout, attempts: opts.storeAttempts },
      guard: { maxDrop: opts.maxDrop, force: opts.force },
      log: (line) => console.log(line),
      progress: progressBar,
      onDiff: opts.diffOut ? (text) => appendFile(opts.diffOut!, `\`\`\`\n${text}\n\`\`\`\n`) : undefined,
    });
  } finally {
    if (opts.dist === undefined) await rm(dist, { recursive: true, force: true });
  }
}
