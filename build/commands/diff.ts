import type { Command } from 'commander';
import { diffDirectories } from '../diff/diffDirectories.ts';
import { formatDiff } from '../diff/formatDiff.ts';
import { loadDirectory } from '../diff/loadDirectory.ts';

export function registerDiffCommand(program: Command): void {
  program.command('diff')
    .description('Show what changed between two built versions: offices, municipalities and postal codes.')
    .argument('<old>', 'a version directory, a dist directory (its current version), a directory.json or a report.json')
    .argument('<new>', 'the same kinds as <old>')
    .option('--json', 'print the diff as JSON instead of text', false)
    .action(async (oldPath: string, newPath: string, opts: { json: boolean }) => {
      const [before, after] = await Promise.all([loadDirectory(oldPath), loadDirectory(newPath)]);
      const diff = diffDirectories(before, after);
      console.log(opts.json ? JSON.stringify(diff, null, 2) : formatDiff(diff));
    });
}
