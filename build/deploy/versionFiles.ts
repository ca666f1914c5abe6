// The files of a built version in the order they must reach the bucket: a reader that follows `current`
// finds the manifest, and everything the manifest names must already be there. So the bodies go first,
// then the other files of the version, the manifest last of them (as on disk, a version with a manifest is
// complete), and only then the pointer.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { MANIFEST_FILE } from '../../core/manifest.ts';

const OBJECTS_DIR = 'objects';

/** Relative paths with "/" separators, in upload phases; the files of one phase may go in any order. */
export async function versionFiles(versionDir: string): Promise<string[][]> {
  if (!existsSync(join(versionDir, MANIFEST_FILE))) throw new Error(`${versionDir} is not a complete version: it has no ${MANIFEST_FILE}`);
  const entries = await readdir(versionDir, { recursive: true, withFileTypes: true });
  const paths = entries.filter((e) => e.isFile())
    .map((e) => relative(versionDir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
  const bodies = paths.filter((p) => p.startsWith(`${OBJECTS_DIR}/`));
  const others = paths.filter((p) => !p.startsWith(`${OBJECTS_DIR}/`) && p !== MANIFEST_FILE);
  return [bodies, others, [MANIFEST_FILE]];
}
