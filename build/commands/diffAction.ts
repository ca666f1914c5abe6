// What `finanzamt diff` runs (its arguments are in diff.ts).
import { diffDirectories } from '../diff/diffDirectories.ts';
import { formatDiff } from '../diff/formatDiff.ts';
import { loadDirectory } from '../diff/loadDirectory.ts';

export async function diff(oldPath: string, newPath: string, opts: { json: boolean }): Promise<void> {
  const [before, after] = await Promise.all([loadDirectory(oldPath), loadDirectory(newPath)]);
  const changes = diffDirectories(before, after);
  console.log(opts.json ? JSON.stringify(changes, null, 2) : formatDiff(changes));
}
