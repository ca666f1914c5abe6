// `finanzamt deploy`: its options and help. What it runs is in deployAction.ts, loaded only when it runs.
import type { Command } from 'commander';
import { addTargetOptions } from '../deploy/options.ts';
import { addGuardOptions } from '../guard/options.ts';
import type { DeployCommandOptions } from './deployAction.ts';

export function registerDeployCommand(program: Command): void {
  addGuardOptions(addTargetOptions(program.command('deploy')
    .description('Upload a built version to S3-compatible object storage as <prefix>/<version>/… and then point <prefix>/current at it.')
    .option('--dist <dir>', 'built tree', 'dist')
    .option('--version <version>', 'version to deploy (default: the one <dist>/current names)')))
    .option('--dry-run', 'compare with the bucket and print what would be uploaded, without writing', false)
    .action(async (opts: DeployCommandOptions) => (await import('./deployAction.ts')).deploy(opts));
}
