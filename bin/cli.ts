// The command line: one program with a subcommand per job. Each subcommand lives in its own module; this file
// only wires them to commander and turns failures into a message and a non-zero exit code.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerBenchCommand } from '../bench/command.ts';
import { registerBuildCommand } from '../build/commands/build.ts';
import { registerDeployCommand } from '../build/commands/deploy.ts';
import { registerDiffCommand } from '../build/commands/diff.ts';
import { registerKeysCommand } from '../proxy/commands/keys.ts';
import { registerReleaseCommand } from '../build/commands/release.ts';
import { registerServeCommand } from '../proxy/commands/serve.ts';
import { registerStartCommand } from './start.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('finanzamt')
  .description('Lookup service over the directory of German tax offices: build, serve and operate it.')
  .version(version)
  // The program's own options only before a command: `deploy --version V` names a version to deploy.
  .enablePositionalOptions()
  .showHelpAfterError();

registerBuildCommand(program);
registerServeCommand(program);
registerKeysCommand(program);
registerStartCommand(program);
registerDeployCommand(program);
registerDiffCommand(program);
registerReleaseCommand(program);
registerBenchCommand(program);

try {
  await program.parseAsync();
} catch (e) {
  console.error(`finanzamt: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
