// Notices changes to a file or link on disk. fs.watch reacts at once but misses changes on some file systems
// (network mounts, some container overlays) and loses track of a file that is replaced by rename, so a
// cheap poll runs beside it; `check` must therefore be idempotent and cheap when nothing changed.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Calls `check` when `path` may have changed, and every `pollMs`; returns a stop function. */
export function watchAndPoll(path: string, pollMs: number, check: () => void): () => void {
  const name = basename(path);
  let watcher: FSWatcher | undefined;
  try {
    // The directory, not the file: writers replace the file by rename, which a watch on the file would
    // outlive. Other files there (a log file, say) change all the time and are no reason to look.
    watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) check();
    });
    watcher.on('error', () => { watcher?.close(); watcher = undefined; });
  } catch {
    // The directory may not exist yet; the poll covers it until then.
  }
  const timer = setInterval(check, pollMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
