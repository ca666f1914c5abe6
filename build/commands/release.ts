// `finanzamt release`: its options and help. What it runs is in releaseAction.ts, loaded only when it runs.
import type { Command } from 'commander';
import { parsePositive, someOf } from '../../core/commandLine.ts';
import { addTargetOptions } from '../deploy/options.ts';
import { addGuardOptions } from '../guard/options.ts';
import { DEFAULT_SOURCE_CONFIG, FETCH_TIMEOUT, RELEASE_STEPS } from '../release/steps.ts';
import type { ReleaseCommandOptions } from './releaseAction.ts';

const parseSteps = someOf(RELEASE_STEPS, (unknown) => `unknown step ${unknown.join(', ')}: expected some of ${RELEASE_STEPS.join(', ')}`);

export function registerReleaseCommand(program: Command): void {
  addGuardOptions(addTargetOptions(program.command('release')
    .description(`The monthly release: ${RELEASE_STEPS.join(', ')}. Each step prints one line; the first failure stops the release.`)
    .option('--source <dir>', 'source bundle that fetch updates and build reads', 'data')
    .option('--sources <file>', 'the files fetch downloads (JSON: kind, url, zipMember, encoding)', DEFAULT_SOURCE_CONFIG)
    .option('--fetch-timeout <ms>', 'longest time one download of fetch may take, from its request to its last byte', parsePositive, FETCH_TIMEOUT)
    .option('--dist <dir>', 'built tree (default: a temporary directory, removed afterwards)')
    .option('--steps <list>', 'comma-separated steps to run', parseSteps, [...RELEASE_STEPS])
    .option('--dry-run', 'fetch nothing and deploy nothing: build, guard, diff and a deploy --dry-run against the target', false)
    .option('--diff-out <file>', 'append the full diff as text to this file (e.g. $GITHUB_STEP_SUMMARY)')))
    .action(async (opts: ReleaseCommandOptions) => (await import('./releaseAction.ts')).release(opts));
}
