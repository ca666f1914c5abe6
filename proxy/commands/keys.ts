// `finanzamt keys`: issue and manage access keys. The keys file holds only hashes, so a new key is shown
// exactly once, as the last line of `keys add` (scripts take it with `tail -n 1`). A running proxy picks up
// every change within a second. With --redis the command works on the fleet's keys: the file is first merged
// with the copy shared in Redis, and what is written is shared there too, which every proxy of the fleet
// applies within a second (proxy/keys/keySync.ts), also on machines that have another keys file.
import type { Command } from 'commander';
import type { Redis } from 'ioredis';
import { mergeKeyRecords } from '../keys/mergeKeys.ts';
import { parseRedisUrl } from '../fleet/redisUrl.ts';
import { readSharedKeys, shareKeys, withRedis } from '../keys/sharedKeys.ts';
import { keyUsage, type KeyUsage } from '../keys/usage.ts';
import { addKey, readKeysFile, setKeyStatus, writeKeysFile, type KeyRecord, type KeysFile, type KeyStatus } from '../keys/keysFile.ts';

interface FileFlag {
  keysFile: string;
  redis?: string;
}

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('Issue, list, block, unblock and revoke access keys.');

  withKeysFile(keys.command('add'))
    .description('Issue a new key; prints it once, as the last line (only its hash is stored).')
    .requiredOption('--name <name>', 'who the key is for (unique among keys not revoked)')
    .action(async (flags: FileFlag & { name: string }) => {
      const { record, key } = await changeKeys(flags, (file) => addKey(file, flags.name));
      console.log(`added key ${record.id} for "${record.name}" to ${flags.keysFile}; it is not stored and cannot be shown again:`);
      console.log(key);
    });

  withKeysFile(keys.command('list'))
    .description('List the keys (id, name, status, dates; with --log-file their use); never the keys themselves.')
    .option('--log-file <files...>', 'the proxy\'s access log (and rotated ones): show requests in the last 24 h and the last use of each key')
    .action(async (flags: FileFlag & { logFile?: string[] }) => {
      const file = await fleetOrFile(flags, readKeys);
      if (file.keys.length === 0) console.log(`no keys in ${flags.keysFile}`);
      const usage = flags.logFile ? await keyUsage(flags.logFile, Date.now()) : null;
      for (const k of file.keys) console.log(usage ? `${describe(k)}  ${describeUsage(usage.get(k.id))}` : describe(k));
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
        const { record } = await changeKeys(flags, (file) => setKeyStatus(file, idOrName, status));
        console.log(describe(record));
      });
  }
}

function withKeysFile(command: Command): Command {
  return command
    .option('--keys-file <file>', 'keys file', 'keys.json')
    .option('--redis <url>', 'work on the keys of the fleet sharing this Redis: merge them into the file, share every change', parseRedisUrl);
}

/** Runs `use` with a connection to the fleet's Redis when --redis is given, else without. */
function fleetOrFile<T>(flags: FileFlag, use: (flags: FileFlag, redis?: Redis) => Promise<T>): Promise<T> {
  return flags.redis === undefined ? use(flags) : withRedis(flags.redis, (redis) => use(flags, redis));
}

/** The keys file, merged with the fleet's shared keys when connected to its Redis. */
async function readKeys(flags: FileFlag, redis?: Redis): Promise<KeysFile> {
  const file = await readKeysFile(flags.keysFile);
  return redis ? { ...file, keys: mergeKeyRecords(file.keys, await readSharedKeys(redis)) } : file;
}

/** Reads the keys, applies `edit`, writes the file, and shares the result with the fleet when connected. */
function changeKeys<T extends { file: KeysFile }>(flags: FileFlag, edit: (file: KeysFile) => T): Promise<T> {
  return fleetOrFile(flags, async (flags, redis) => {
    const result = edit(await readKeys(flags, redis));
    await writeKeysFile(flags.keysFile, result.file);
    if (redis) await shareKeys(redis, result.file.keys);
    return result;
  });
}

function describeUsage(u: KeyUsage | undefined): string {
  if (u === undefined) return 'never used';
  return `${u.requests} requests in 24 h (${u.refused} refused), last used ${new Date(u.lastUse).toISOString()}`;
}

function describe(k: KeyRecord): string {
  return [k.id, k.status.padEnd(7), `created ${k.created}`, k.changed ? `changed ${k.changed}` : '', JSON.stringify(k.name)]
    .filter(Boolean).join('  ');
}
