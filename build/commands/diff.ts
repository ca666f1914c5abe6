// `finanzamt diff`: its arguments and help. What it runs is in diffAction.ts, loaded only when it runs.
import type { Command } from 'commander';

export function registerDiffCommand(program: Command): void {
  program.command('diff')
    .description('Show what changed between two built versions: offices, municipalities and postal codes.')
    .argument('<old>', 'a version directory, a dist directory (its current version), a directory.json or a report.json')
    .argument('<new>', 'the same kinds as <old>')
    .option('--json', 'print the diff as JSON instead of text', false)
    .action(async (oldPath: string, newPath: string, opts: { json: boolean }) => (await import('./diffAction.ts')).diff(oldPath, newPath, opts));
}
