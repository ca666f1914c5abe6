// `finanzamt keys`: issue and manage access keys. The keys file holds only hashes, so a new key is shown
// exactly once, as the last line of `keys add` (scripts take it with `tail -n 1`). A running proxy picks up
// every change within a second.
import type { Command } from 'commander';
import { addKey, readKeysFile, setKeyStatus, writeKeysFile, type KeyRecord, type KeyStatus } from '../../proxy/keys/keysFile.ts';

interface FileFlag {
  keysFile: string;
}

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('Issue, list, block, unblock and revoke access keys.');

  withKeysFile(keys.command('add'))
    .description('Issue a new key; prints it once, as the last line (only its hash is stored).')
    .requiredOption('--name <name>', 'who the key is for (unique among keys not revoked)')
    .action(async (flags: FileFlag & { name: string }) => {
      const { file, record, key } = addKey(await readKeysFile(flags.keysFile), flags.name);
      await writeKeysFile(flags.keysFile, file);
      console.log(`added key ${record.id} for "${record.name}" to ${flags.keysFile}; it is not stored and cannot be shown again:`);
      console.log(key);
    });

  withKeysFile(keys.command('list'))
    .description('List the keys (id, name, status, dates); never the keys themselves.')
    .action(async (flags: FileFlag) => {
      const file = await readKeysFile(flags.keysFile);
      if (file.keys.length === 0) console.log(`no keys in ${flags.keysFile}`);
      for (const k of file.keys) console.log(describe(k));
    });

  const changes: [string, KeyStatus, string][] = [
    ['block', 'blocked', 'Block a key: requests with it get 403 until it is unblocked.'],
    ['unblock', 'active', 'Unblock a blocked key.'],
    ['revoke', 'revoked', 'Revoke a key for good: requests with it get 401. It stays listed.'],
  ];
  for (const [name, status, description] of changes) {
    withKeysFile(keys.command(name))
      .description(description)
      .argument('<key>', 'id (k_…) or name of the key')
      .action(async (idOrName: string, flags: FileFlag) => {
        const { file, record } = setKeyStatus(await readKeysFile(flags.keysFile), idOrName, status);
        await writeKeysFile(flags.keysFile, file);
        console.log(describe(record));
      });
  }
}

function withKeysFile(command: Command): Command {
  return command.option('--keys-file <file>', 'keys file', 'keys.json');
}

function describe(k: KeyRecord): string {
  return [k.id, k.status.padEnd(7), `created ${k.created}`, k.changed ? `changed ${k.changed}` : '', JSON.stringify(k.name)]
    .filter(Boolean).join('  ');
}
