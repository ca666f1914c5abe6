// `finanzamt start` (npm start): from a fresh checkout to a running service in one command. Builds the tree
// when none is published, issues a first key when there is no keys file, and serves. The one command that runs
// both sides, so it lives with the entry point rather than in build/ or proxy/, neither of which imports the other.
// Only the options and help are here; what it runs is in startAction.ts, loaded only when it runs.
import type { Command } from 'commander';
import { withServeOptions } from '../proxy/commands/serve.ts';
import type { StartFlags } from './startAction.ts';

export function registerStartCommand(program: Command): void {
  withServeOptions(program.command('start'))
    .description('Build dist if it has no current version, create a keys file with one key if there is none, then serve.')
    .option('--source <dir>', 'source bundle to build from', 'data')
    .action(async (flags: StartFlags) => (await import('./startAction.ts')).start(flags));
}
