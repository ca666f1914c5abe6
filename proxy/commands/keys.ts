// `finanzamt keys`: issue and manage access keys. The keys file holds only hashes, so a new key is shown
// exactly once, as the last line of `keys add` (scripts take it with `tail -n 1`). A running proxy picks up
// every change within a second. With --redis the command works on the fleet's keys: the file is first merged
// with the copy shared in Redis, and what is written is shared there too, which every proxy of the fleet
// applies within a second (proxy/fleet/keySync.ts), also on machines that have another keys file.
// The options and help are here; what the subcommands run is in keysAction.ts, loaded only when one runs.
import type { Command } from 'commander';
import { parseRedisUrl } from '../../core/commandLine.ts';
import type { KeyStatus } from '../keys/keysFile.ts';
import type { FileFlag } from './keysAction.ts';

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('Issue, list, block, unblock and revoke access keys.');

  withKeysFile(keys.command('add'))
    .description('Issue a new key; prints it once, as the last line (only its hash is stored).')
    .requiredOption('--name <name>', 'who the key is for (unique among keys not revoked)')
    .action(async (flags: FileFlag & { name: string }) => (await import('./keysAction.ts')).addKeyTo(flags));

  withKeysFile(keys.command('list'))
    .description('List the keys (id, name, status, dates; with --log-file their use; with --redis as the fleet has them); never the keys themselves.')
    .option('--log-file <files...>', 'the proxy\'s access log (and rotated ones): show requests in the last 24 h and the last use of each key')
    .action(async (flags: FileFlag & { logFile?: string[] }) => (await import('./keysAction.ts')).listKeys(flags));

  const changes: [string, KeyStatus, string][] = [
    ['block', 'blocked', 'Block a key: requests with it get 403 until it is unblocked.'],
    ['unblock', 'active', 'Unblock a blocked key.'],
    ['revoke', 'revoked', 'Revoke a key for good: requests with it get 401. It stays listed.'],
  ];
  for (const [name, status, description] of changes) {
    withKeysFile(keys.command(name))
      .description(description)
      .argument('<key>', 'id (k_…) or name of the key')
      .action(async (idOrName: string, flags: FileFlag) => (await import('./keysAction.ts')).setStatus(idOrName, status, flags));
  }
}

function withKeysFile(command: Command): Command {
  return command
    .option('--keys-file <file>', 'keys file', 'keys.json')
    .option('--redis <url>', 'work on the keys of the fleet sharing this Redis: merge them into the file, share every change', parseRedisUrl);
}
