// Edits of the keys file are read-modify-write: two `finanzamt keys` commands at once would each write the file
// as they read it, and the later rename would silently undo the other's change. The lock makes them take turns.
// It is the folder `<file>.lock` holding one file, `owner-<token>`: the record of the command holding it
// (lockOwner.ts: machine, boot, pid and the pid's start).
// - A command takes it by renaming a folder of its own, with its record already inside, to that name. A rename
//   onto a missing or empty folder succeeds and onto a holder's fails, so the lock is taken whole or not at all.
// - A command that finds the holder gone (killed: its process, or its machine's boot, has ended) removes that
//   holder's record by its name, which empties the folder for the next rename. Commands that find the same dead
//   holder remove the same file and one of them takes the lock; a live holder's record has another name and is
//   never touched, and one that cannot be checked (on another machine) is waited for. No clock and no age takes
//   part: a wrong clock or a slow command never makes a live lock look stale, and nothing has to be refreshed.
// - The holder releases it by removing its record and then the empty folder.
// The running proxy only reads the file and takes no lock.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describeOwner, LockOwner, ownerState, thisProcess } from './lockOwner.ts';

/** How long a command waits for a live holder: long enough for a queue of commands, each a read and a rename. */
const WAIT_MS = 30_000;
const POLL_MS = 25;

/** Runs `edit` while holding the lock of the keys file at `path` (which need not exist yet; its folder must). */
export async function withKeysFileLocked<T>(path: string, edit: () => Promise<T>): Promise<T> {
  const release = await lock(path);
  try {
    return await edit();
  } finally {
    await release();
  }
}

type Holder = { owner: LockOwner; file: string } | { unreadable: string };

async function lock(path: string): Promise<() => Promise<void>> {
  const folder = dirname(path);
  const lockDir = `${path}.lock`;
  const token = randomBytes(8).toString('hex');
  const staging = join(folder, `${stagingPrefix(path)}${token}`);
  const record = `owner-${token}`;
  try {
    await mkdir(staging, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`the folder ${folder} of the keys file ${path} does not exist`);
    throw e;
  }
  await writeFile(join(staging, record), JSON.stringify(thisProcess()), { mode: 0o600 });
  const deadline = performance.now() + WAIT_MS;
  let holder: Holder | null = null;
  try {
    for (;;) {
      try {
        await rename(staging, lockDir);
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
      }
      holder = await holderOf(lockDir);
      // Released meanwhile: try again at once.
      if (holder === null) continue;
      if ('owner' in holder && ownerState(holder.owner) === 'gone') {
        await rm(join(lockDir, holder.file), { force: true });
        continue;
      }
      if (performance.now() > deadline) throw new Error(`${path} is being changed by another command: ${waitedFor(holder, lockDir)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS * (1 + Math.random())));
    }
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  await removeLeftStaging(path);
  return async () => {
    await rm(join(lockDir, record), { force: true });
    try {
      await rmdir(lockDir);
    } catch (e) {
      // Another command has taken the lock since the record went, or has removed the empty folder.
      if (!['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
  };
}

/** The record in the lock folder; null when there is none (the lock was released meanwhile). */
async function holderOf(lockDir: string): Promise<Holder | null> {
  let names: string[];
  try {
    names = await readdir(lockDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (names.length === 0) return null;
  const file = names.find((name) => name.startsWith('owner-'));
  if (names.length !== 1 || file === undefined) return { unreadable: `it holds ${names.join(', ')}` };
  try {
    return { owner: LockOwner.parse(JSON.parse(await readFile(join(lockDir, file), 'utf8'))), file };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { unreadable: `its record ${file} cannot be read` };
  }
}

function waitedFor(holder: Holder, lockDir: string): string {
  const remove = `if no finanzamt keys command runs there any more, remove ${lockDir} and try again`;
  if ('unreadable' in holder) return `the lock ${lockDir} is not one this program made (${holder.unreadable}); ${remove}`;
  const { owner } = holder;
  if (ownerState(owner) === 'running') return `the lock is held by ${describeOwner(owner)}, which still runs; try again once it has finished`;
  return `the lock is held by ${describeOwner(owner)}, which cannot be checked from here; ${remove}`;
}

function stagingPrefix(path: string): string {
  return `.${basename(path)}.lock-`;
}

/** Removes the folders that commands killed while they waited for the lock left beside it. */
async function removeLeftStaging(path: string): Promise<void> {
  const folder = dirname(path);
  const prefix = stagingPrefix(path);
  for (const name of await readdir(folder)) {
    if (!name.startsWith(prefix)) continue;
    const holder = await holderOf(join(folder, name));
    if (holder !== null && 'owner' in holder && ownerState(holder.owner) === 'gone') await rm(join(folder, name), { recursive: true, force: true });
  }
}
