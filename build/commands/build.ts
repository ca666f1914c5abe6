import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { buildVersion } from '../buildVersion.ts';
import { summarize } from '../report.ts';
import { progressBar } from './progress.ts';

export function registerBuildCommand(program: Command): void {
  program.command('build')
    .description('Build every precomputed response from the source bundle and publish it as dist/<stand_quelle>.')
    .option('--source <dir>', 'source bundle (with manifest.json)', 'data')
    .option('--out <dir>', 'output tree', 'dist')
    .option('--keep <n>', 'older versions kept besides the current one', parseCount, 2)
    .option('--concurrency <n>', 'bodies compressed at once', parseCount, Math.max(4, availableParallelism() * 2))
    .action(async (opts: { source: string; out: string; keep: number; concurrency: number }) => {
      const bar = progressBar('precomputing');
      try {
        const result = await buildVersion({ ...opts, onProgress: bar.update });
        bar.stop();
        console.log(summarize(result.report));
        console.log(result.outcome === 'unchanged'
          ? `${opts.out}/${result.version} was already published with the same content; current points at it`
          : `published ${opts.out}/${result.version} as ${opts.out}/current`);
      } finally {
        bar.stop();
      }
    });
}

export function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
}
