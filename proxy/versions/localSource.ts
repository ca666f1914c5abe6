// Versions from a local tree built by `finanzamt build`: `current` is a symlink to the version directory,
// switched by an atomic rename, so a readlink is a consistent view of which version is published.
import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CURRENT, MANIFEST_FILE, retiredPrefix } from '../../core/manifest.ts';
import { watchAndPoll } from '../watch/watchAndPoll.ts';
import { ReadSlots } from './readSlots.ts';
import type { ObjectRead, Published, VersionSource } from './source.ts';

const POLL_MS = 250;

/** A local tree, and the slots its body reads go through (readSlots.ts). */
export type LocalSource = VersionSource & { reads: ReadSlots };

/** `onStuck`: told when a body read overruns `readTimeoutMs`, with how many are stuck now. */
export function localSource(dist: string, readTimeoutMs: number, onStuck: (stuck: number, slots: number) => void = () => {}): LocalSource {
  const reads = new ReadSlots(readTimeoutMs, onStuck);
  const root = resolve(dist);
  const current = join(root, CURRENT);
  const versionDir = (name: string) => resolve(root, name);
  /** The manifest's identity tells a directory's build apart from another of the same name. */
  const tokenOf = async (name: string, dir: string) => {
    const s = await stat(join(dir, MANIFEST_FILE), { bigint: true });
    return `${name}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  };
  /** Loaded versions whose directory a rebuild of the same name moved aside (build/publish.ts), and where to. */
  const moved = new WeakMap<Published, string>();
  const movedTo = async (version: Published): Promise<string | null> => {
    const prefix = retiredPrefix(version.name);
    for (const entry of await readdir(root)) {
      const dir = join(root, entry);
      if (entry.startsWith(prefix) && await tokenOf(version.name, dir).catch(() => null) === version.token) return dir;
    }
    return null;
  };
  const read = (dir: string, path: string) => {
    const file = join(dir, path);
    return reads.read(file, (signal) => readFile(file, { signal }));
  };

  return {
    description: root,
    async published(): Promise<Published | null> {
      let name: string;
      try {
        name = await readlink(current);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return null;
        // Not a link: someone copied a version to `current`; serve it as it is.
        if (code === 'EINVAL') name = CURRENT;
        else throw e;
      }
      // The manifest is written last and replaced with the directory, so its identity tells a rebuild apart.
      return { name, token: await tokenOf(name, versionDir(name)) };
    },
    async readMeta(name, file) {
      try {
        return await readFile(join(versionDir(name), file));
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
    reads,
  };
}
