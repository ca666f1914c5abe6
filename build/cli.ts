// The command line: one program with a subcommand per job. Each subcommand lives in its own module; this file
// only wires them to commander and turns failures into a message and a non-zero exit code.
import { Command } from 'commander';
import { registerBuildCommand } from './commands/build.ts';
import { registerDeployCommand } from './commands/deploy.ts';
import { registerDiffCommand } from './commands/diff.ts';
import { registerReleaseCommand } from './commands/release.ts';

const program = new Command('finanzamt')
  .description('Lookup service over the directory of German tax offices: build, serve and operate it.')
  .showHelpAfterError();

registerBuildCommand(program);
(await import('./commands/serve.ts')).registerServeCommand(program);
(await import('./commands/keys.ts')).registerKeysCommand(program);
(await import('./commands/start.ts')).registerStartCommand(program);
registerDeployCommand(program);
registerDiffCommand(program);
registerReleaseCommand(program);
(await import('./commands/bench.ts')).registerBenchCommand(program);

try {
  await program.parseAsync();
} catch (e) {
  console.error(`finanzamt: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
