// Finds the assembled directory a `diff` argument means: a version directory, a dist directory (its
// `current`), a directory.json, or a report.json (the directory.json beside it).
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CURRENT, DIRECTORY_FILE, REPORT_FILE } from '../../core/manifest.ts';
import { Directory } from '../../core/model.ts';

export function directoryFileOf(path: string): string {
  if (!existsSync(path)) throw new Error(`${path}: no such file or directory`);
  if (statSync(path).isDirectory()) {
    const versionDir = existsSync(join(path, CURRENT)) ? join(path, CURRENT) : path;
    const file = join(versionDir, DIRECTORY_FILE);
    if (!existsSync(file)) throw new Error(`${path}: neither a version directory nor a dist directory with ${CURRENT}`);
    return file;
  }
  return basename(path) === REPORT_FILE ? join(dirname(path), DIRECTORY_FILE) : path;
}

export async function loadDirectory(path: string): Promise<Directory> {
  const file = directoryFileOf(path);
  const parsed = Directory.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not an assembled directory: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
