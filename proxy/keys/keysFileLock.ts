// Edits of the keys file are read-modify-write: two `finanzamt keys` commands at once would each write the file
// as they read it, and the later rename would silently undo the other's change. The lock (proper-lockfile: a
// `<file>.lock` directory made atomically, refreshed while held, taken over when its holder died) makes them
// take turns. The running proxy only reads the file and takes no lock.
import lockfile from 'proper-lockfile';

/** Long enough for a queue of commands, each of which holds the lock for a read and a rename. */
const RETRIES = { retries: 100, minTimeout: 20, maxTimeout: 250, randomize: true };

/** Runs `edit` while holding the lock of the keys file at `path` (which need not exist yet). */
export async function withKeysFileLocked<T>(path: string, edit: () => Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, { realpath: false, retries: RETRIES });
  } catch (e) {
    throw new Error(`${path} is being changed by another command and stayed locked (${(e as Error).message})`);
  }
  try {
    return await edit();
  } finally {
    await release();
  }
}
