import type { Command } from 'commander';
import { parseCount } from '../../core/commandLine.ts';
import { BUILD_DEFAULTS, buildVersion } from '../buildVersion.ts';
import { summarizeDiff } from '../diff/formatDiff.ts';
import { describeDrops } from '../guard/guard.ts';
import { addGuardOptions } from '../guard/options.ts';
import { summarize } from '../report.ts';
import { progressBar } from './progress.ts';

export function registerBuildCommand(program: Command): void {
  addGuardOptions(program.command('build')
    .description('Build every precomputed response from the source bundle and publish it as dist/<stand_quelle>.'))
    .option('--source <dir>', 'source bundle (with manifest.json)', 'data')
    .option('--out <dir>', 'output tree', 'dist')
    .option('--keep <n>', 'older versions kept besides the current one', parseCount, BUILD_DEFAULTS.keep)
    .option('--concurrency <n>', 'bodies compressed at once', parseCount, BUILD_DEFAULTS.concurrency)
    .action(async (opts: { source: string; out: string; keep: number; concurrency: number; maxDrop: number; force: boolean }) => {
      const bar = progressBar('precomputing');
      try {
        const result = await buildVersion({ ...opts, guard: { maxDrop: opts.maxDrop, force: opts.force }, onProgress: bar.update });
        bar.stop();
        console.log(summarize(result.report));
        if (result.report.diff) console.log(`changes since ${result.report.diff.from.stand_quelle}: ${summarizeDiff(result.report.diff)}`);
        if (result.forcedDrops.length > 0) console.warn(`published despite the guard (--force): ${describeDrops(result.forcedDrops, opts.maxDrop)}`);
        console.log(result.outcome === 'unchanged'
          ? `${opts.out}/${result.version} was already published with the same content; current points at it`
          : `published ${opts.out}/${result.version} as ${opts.out}/current`);
      } finally {
        bar.stop();
      }
    });
}
