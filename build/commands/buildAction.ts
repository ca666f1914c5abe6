// What `finanzamt build` runs (its options are in build.ts).
import { buildVersion } from '../buildVersion.ts';
import { summarizeDiff } from '../diff/formatDiff.ts';
import { describeDrops } from '../guard/guard.ts';
import { formatTimings } from '../phases.ts';
import { summarize } from '../report.ts';
import { progressBar } from './progress.ts';

/** The options as commander hands them over (build.ts). */
export interface BuildCommandOptions {
  source: string;
  out: string;
  keep: number;
  threads: number;
  maxDrop: number;
  force: boolean;
}

export async function build(opts: BuildCommandOptions): Promise<void> {
  const bar = progressBar('precomputing answers');
  try {
    const result = await buildVersion({ ...opts, guard: { maxDrop: opts.maxDrop, force: opts.force }, onProgress: bar.update });
    bar.stop();
    console.log(summarize(result.report));
    console.log(`phases: ${formatTimings(result.timings)}`);
    if (result.report.diff) console.log(`changes since ${result.report.diff.from.stand_quelle}: ${summarizeDiff(result.report.diff)}`);
    if (result.forcedDrops.length > 0) console.warn(`published despite the guard (--force): ${describeDrops(result.forcedDrops, opts.maxDrop)}`);
    console.log(result.outcome === 'unchanged'
      ? `${opts.out}/${result.version} was already published with the same content; current points at it`
      : `published ${opts.out}/${result.version} as ${opts.out}/current`);
  } finally {
    bar.stop();
  }
}
