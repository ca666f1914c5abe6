// The command line: one program with a subcommand per job. Each subcommand lives in its own module; this file
// only wires them to commander and turns failures into a message and a non-zero exit code.
import { Command } from 'commander';
import { registerBuildCommand } from './commands/build.ts';

const program = new Command('finanzamt')
  .description('Lookup service over the directory of German tax offices: build, serve and operate it.')
  .showHelpAfterError();

registerBuildCommand(program);

try {
  await program.parseAsync();
} catch (e) {
  console.error(`finanzamt: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
