// `finanzamt build`: its options and help. What it runs is in buildAction.ts, loaded only when it runs.
import type { Command } from 'commander';
import { parseCount } from '../../core/commandLine.ts';
import { addGuardOptions } from '../guard/options.ts';
import type { BuildCommandOptions } from './buildAction.ts';
import { BUILD_DEFAULTS } from '../../core/options.ts';

export function registerBuildCommand(program: Command): void {
  addGuardOptions(program.command('build')
    .description('Build every precomputed response from the source bundle and publish it as dist/<stand_quelle>.'))
    .option('--source <dir>', 'source bundle (with manifest.json)', 'data')
    .option('--out <dir>', 'output tree', 'dist')
    .option('--keep <n>', 'versions built before that are kept besides the current one (the one current named before is kept in any case)', parseCount, BUILD_DEFAULTS.keep)
    .option('--threads <n>', 'worker threads that compress, hash and write the bodies', parseCount, BUILD_DEFAULTS.threads)
    .action(async (opts: BuildCommandOptions) => (await import('./buildAction.ts')).build(opts));
}
