// Versions from a local tree built by `finanzamt build`: `current` is a symlink to the version directory,
// switched by an atomic rename, so a readlink is a consistent view of which version is published. Every call on
// the file system, the loader's as well as the bodies', goes through the read slots (readSlots.ts): a hung disk,
// or a FIFO where a version's file should be, fails that read at --read-timeout instead of holding the loader,
// and with it the following of versions, for as long as the kernel holds the call.
import { open, readdir, readlink, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CURRENT, MANIFEST_FILE, retiredPrefix } from '../../core/manifest.ts';
import { watchAndPoll } from '../watch/watchAndPoll.ts';
import { ReadSlots } from './readSlots.ts';
import type { ObjectRead, Published, VersionSource } from './source.ts';

const POLL_MS = 250;

/** A local tree, and the slots its reads go through (readSlots.ts). */
export type LocalSource = VersionSource & { reads: ReadSlots };

/** `onStuck`: told when a read overruns `readTimeoutMs`, with how many are stuck now and what it reads. */
export function localSource(dist: string, readTimeoutMs: number, onStuck: (stuck: number, slots: number, file: string) => void = () => {}): LocalSource {
  const reads = new ReadSlots(readTimeoutMs, onStuck);
  const root = resolve(dist);
  const current = join(root, CURRENT);
  const versionDir = (name: string) => resolve(root, name);
  /** `call` on `path` within the slots; `what` names a call other than a read of the file (a stat of it is another). */
  const bounded = <T>(path: string, call: (signal: AbortSignal) => Promise<T>, what = ''): Promise<T> => reads.read(`${path}${what}`, call);
  const exists = (path: string) => bounded(path, () => stat(path).then(() => true, (e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return false;
    throw e;
  }), ' (exists)');
  /** The manifest's identity tells a directory's build apart from another of the same name. */
  const tokenOf = async (name: string, dir: string) => {
    const file = join(dir, MANIFEST_FILE);
    const s = await bounded(file, () => stat(file, { bigint: true }), ' (stat)');
    return `${name}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  };
  /** What is missing when `current` is, said so that an operator who gave the wrong --dist sees which one to give. */
  const noCurrent = async (): Promise<string> => {
    const layout = `--dist names the folder that finanzamt build --out writes, which holds ${CURRENT}, the link to the version served`;
    if (!await exists(root)) return `the folder ${root} (--dist ${dist}) does not exist; ${layout}. Build one with: finanzamt build --out ${root}`;
    if (await exists(join(root, MANIFEST_FILE))) {
      return `${current} does not exist, and ${root} is a version directory itself (it holds ${MANIFEST_FILE}); ${layout}: give --dist ${dirname(root)}`;
    }
    return `${current} does not exist; ${layout}. Build one with: finanzamt build --out ${root}`;
  };
  /** Loaded versions whose directory a rebuild of the same name moved aside (build/publish.ts), and where to. */
  const moved = new WeakMap<Published, string>();
  const movedTo = async (version: Published): Promise<string | null> => {
    const prefix = retiredPrefix(version.name);
    for (const entry of await bounded(root, () => readdir(root), ' (list)')) {
      const dir = join(root, entry);
      if (entry.startsWith(prefix) && await tokenOf(version.name, dir).catch(() => null) === version.token) return dir;
    }
    return null;
  };
  const read = (dir: string, path: string) => {
    const file = join(dir, path);
    return bounded(file, (signal) => readWhole(file, signal));
  };

  return {
    description: root,
    reads,
    async published(): Promise<Published> {
      let name: string;
      try {
        name = await bounded(current, () => readlink(current), ' (link)');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') throw new Error(await noCurrent());
        // Not a link: someone copied a version to `current`; serve it as it is.
        if (code === 'EINVAL') name = CURRENT;
        else throw e;
      }
      const dir = versionDir(name);
      try {
        // The manifest is written last and replaced with the directory, so its identity tells a rebuild apart.
        return { name, token: await tokenOf(name, dir) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        throw new Error(`${current} names ${name}, but ${await exists(dir) ? `${dir} holds no ${MANIFEST_FILE} (a version being written, or not one at all)` : `${dir} does not exist`}`);
      }
    },
    async readMeta(name, file) {
      try {
        return await read(versionDir(name), file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    // Bodies are content-addressed, so one found under the version's name is the right one whichever build put
    // it there; one that is missing may be in the directory this version was moved to.
    async readObject({ version, path }: ObjectRead) {
      const named = versionDir(version.name);
      const dir = moved.get(version) ?? named;
      try {
        return await read(dir, path);
      } catch (e) {
        // Reads begun under the name before another found where it went look there too.
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dir !== named) throw e;
        const to = moved.get(version) ?? await movedTo(version);
        if (to === null) throw e;
        moved.set(version, to);
        return read(to, path);
      }
    },
    follow: (check) => watchAndPoll(current, POLL_MS, check),
    close: () => {},
  };
}

/**
 * The whole of `file`, in as few calls on the thread pool as the kernel allows: an open, a stat, one read where it
 * gives everything at once. The end of each call waits for a turn of the event loop, which on a busy proxy may take
 * tens of milliseconds: readFile's steps of 512 KiB took 1.6 s for the 26 MB manifest with a loop busy in 20 ms
 * slices, this 0.26 s, well within the read timeout that bounds the loader's reads.
 */
async function readWhole(file: string, signal: AbortSignal): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const data = Buffer.allocUnsafeSlow(size);
    let length = 0;
    while (length < size) {
      signal.throwIfAborted();
      const { bytesRead } = await handle.read(data, length, size - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    // Shorter than its size said (cut while read): what was there, which the manifest's size then refuses.
    return length === size ? data : data.subarray(0, length);
  } finally {
    await handle.close();
  }
}
