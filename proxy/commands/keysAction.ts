// What the `finanzamt keys` subcommands run (their options are in keys.ts).
import type { Redis } from 'ioredis';
import { mergeKeyRecords } from '../fleet/mergeKeys.ts';
import { readSharedKeys, shareKeys, withRedis } from '../fleet/sharedKeys.ts';
import { keyUsage, type KeyUsage } from '../keys/usage.ts';
import { addKey, KeyRecord, makeKeysFolder, readKeysFile, setKeyStatus, writeKeysFile, type KeysFile, type KeyStatus } from '../keys/keysFile.ts';
import { withKeysFileLocked } from '../keys/keysFileLock.ts';

/** The options every subcommand has (keys.ts). */
export interface FileFlag {
  keysFile: string;
  redis?: string;
}

export async function addKeyTo(flags: FileFlag & { name: string }): Promise<void> {
  // The first key is issued before the proxy first starts, when its state folder may not exist yet.
  await makeKeysFolder(flags.keysFile);
  const { record, key } = await changeKeys(flags, (file) => addKey(file, flags.name));
  console.log(`added key ${record.id} for "${record.name}" to ${flags.keysFile}; it is not stored and cannot be shown again:`);
  console.log(key);
}

/**
 * Lists the keys as the fleet has them with --redis (marking where this machine's file says otherwise), and
 * otherwise as the file has them, saying (on stderr) that a fleet's may differ: a proxy puts the fleet's keys in
 * force over its file, so a key blocked from another machine is refused here while this file says active.
 */
export async function listKeys(flags: FileFlag & { logFile?: string[] }): Promise<void> {
  const { file, fleet } = await fleetOrFile(flags, async (flags, redis) => {
    const file = (await readKeysFile(flags.keysFile)).keys;
    return { file, fleet: redis ? mergeKeyRecords(file, await readSharedKeys(redis)) : null };
  });
  if (fleet === null) {
    console.error(`the keys as ${flags.keysFile} has them; proxies that share keys through Redis may hold others (a key blocked from another machine shows active here): list the fleet's with --redis URL`);
  }
  const keys = fleet ?? file;
  if (keys.length === 0) console.log(`no keys in ${flags.keysFile}${fleet ? ' or the fleet' : ''}`);
  const usage = flags.logFile ? await keyUsage(flags.logFile, Date.now()) : null;
  for (const k of keys) {
    const line = [describe(k), fleet ? besideFile(k, file, flags.keysFile) : '', usage ? describeUsage(usage.get(k.id)) : ''];
    console.log(line.filter(Boolean).join('  '));
  }
}

export async function setStatus(idOrName: string, status: KeyStatus, flags: FileFlag): Promise<void> {
  const { record } = await changeKeys(flags, (file) => setKeyStatus(file, idOrName, status));
  console.log(describe(record));
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

/**
 * Reads the keys, applies `edit`, writes the file, and shares the result with the fleet when connected; all
 * under the file's lock, so that commands run at once take turns. What was written is read back and the
 * changed record looked for, so a command never reports a change that did not land.
 */
function changeKeys<T extends { file: KeysFile; record: KeyRecord }>(flags: FileFlag, edit: (file: KeysFile) => T): Promise<T> {
  return fleetOrFile(flags, (flags, redis) => withKeysFileLocked(flags.keysFile, async () => {
    const result = edit(await readKeys(flags, redis));
    await writeKeysFile(flags.keysFile, result.file);
    verifyHeld((await readKeysFile(flags.keysFile)).keys, result.record, flags.keysFile);
    if (redis) verifyHeld(await shareKeys(redis, result.file.keys), result.record, 'the fleet\'s shared keys');
    return result;
  }));
}

function verifyHeld(records: readonly KeyRecord[], record: KeyRecord, where: string): void {
  const held = records.find((k) => k.id === record.id);
  if (held === undefined || !sameRecord(held, record)) {
    throw new Error(`key ${record.id} is not as written in ${where} (changed meanwhile by another command?); check with: finanzamt keys list`);
  }
}

/** Whether two records of a key say the same, in whatever order their fields were written. */
function sameRecord(a: KeyRecord, b: KeyRecord): boolean {
  return (Object.keys(KeyRecord.shape) as (keyof KeyRecord)[]).every((field) => a[field] === b[field]);
}

/** Where the fleet's record of a key differs from this machine's file. */
function besideFile(k: KeyRecord, file: readonly KeyRecord[], path: string): string {
  const local = file.find((f) => f.id === k.id);
  if (local === undefined) return `(not in ${path})`;
  return local.status === k.status ? '' : `(${local.status} in ${path})`;
}

function describeUsage(u: KeyUsage | undefined): string {
  if (u === undefined) return 'never used';
  return `${u.requests} requests in 24 h (${u.refused} refused), last used ${new Date(u.lastUse).toISOString()}`;
}

function describe(k: KeyRecord): string {
  return [k.id, k.status.padEnd(7), `created ${k.created}`, k.changed ? `changed ${k.changed}` : '', JSON.stringify(k.name)]
    .filter(Boolean).join('  ');
}
