// The guard's command-line options, the same for build, deploy and release.
import type { Command } from 'commander';
import { parsePercent } from '../../core/commandLine.ts';
import { BUILD_DEFAULTS } from '../../core/options.ts';

export function addGuardOptions(command: Command): Command {
  return command
    .option('--max-drop <percent>',
      'refuse to publish when municipalities, postal-code rows, postal codes, offices or offices with a district fall by more than this percentage against the published version',
      parsePercent, BUILD_DEFAULTS.maxDropPercent)
    .option('--force', 'publish even when the guard refuses', false);
}
