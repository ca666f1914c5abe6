// Versions from a local tree built by `finanzamt build`: `current` is a symlink to the version directory,
// switched by an atomic rename, so a readlink is a consistent view of which version is published.
import { readFile, readlink, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CURRENT, MANIFEST_FILE } from '../../core/manifest.ts';
import { watchAndPoll } from '../watch/watchAndPoll.ts';
import { ReadSlots } from './readSlots.ts';
import type { Published, VersionSource } from './source.ts';

const POLL_MS = 250;

/** A local tree, and the slots its body reads go through (readSlots.ts). */
export type LocalSource = VersionSource & { reads: ReadSlots };

/** `onStuck`: told when a body read overruns `readTimeoutMs`, with how many are stuck now. */
export function localSource(dist: string, readTimeoutMs: number, onStuck: (stuck: number, slots: number) => void = () => {}): LocalSource {
  const reads = new ReadSlots(readTimeoutMs, onStuck);
  const root = resolve(dist);
  const current = join(root, CURRENT);
  const versionDir = (name: string) => resolve(root, name);
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
      const s = await stat(join(versionDir(name), MANIFEST_FILE), { bigint: true });
      return { name, token: `${name}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}` };
    },
    async readMeta(name, file) {
      try {
        return await readFile(join(versionDir(name), file));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    readObject: (name, path) => {
      const file = join(versionDir(name), path);
      return reads.read(file, (signal) => readFile(file, { signal }));
    },
    follow: (check) => watchAndPoll(current, POLL_MS, check),
    close: () => {},
    reads,
  };
}
