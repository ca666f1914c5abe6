import type { Command } from 'commander';
import { describeDeploy } from '../deploy/describe.ts';
import { deployVersion } from '../deploy/deployVersion.ts';
import { s3Store } from '../deploy/objectStore.ts';
import { addTargetOptions, type DeployFlags } from '../deploy/options.ts';
import { resolveTarget, TARGET_HELP } from '../deploy/target.ts';
import { describeDrops } from '../guard/guard.ts';
import { addGuardOptions } from '../guard/options.ts';
import { progressBar } from './progress.ts';

interface DeployCommandOptions extends DeployFlags {
  dist: string;
  version?: string;
  maxDrop: number;
  force: boolean;
  dryRun: boolean;
}

export function registerDeployCommand(program: Command): void {
  addGuardOptions(addTargetOptions(program.command('deploy')
    .description('Upload a built version to S3-compatible object storage as <prefix>/<version>/… and then point <prefix>/current at it.')
    .option('--dist <dir>', 'built tree', 'dist')
    .option('--version <version>', 'version to deploy (default: the one <dist>/current names)')))
    .option('--dry-run', 'compare with the bucket and print what would be uploaded, without writing', false)
    .action(async (opts: DeployCommandOptions) => {
      const target = resolveTarget(opts);
      if (target === null) throw new Error(`no deploy target: ${TARGET_HELP}`);
      const bar = progressBar(opts.dryRun ? 'comparing' : 'uploading');
      try {
        const result = await deployVersion(s3Store(target), {
          ...opts, target, guard: { maxDrop: opts.maxDrop, force: opts.force }, onProgress: bar.update,
        });
        bar.stop();
        if (result.forcedDrops.length > 0) console.warn(`deployed despite the guard (--force): ${describeDrops(result.forcedDrops, opts.maxDrop)}`);
        console.log(describeDeploy(result, opts.dryRun));
      } finally {
        bar.stop();
      }
    });
}
