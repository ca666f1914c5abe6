// Where the log lines go (a file or stdout), made so that a log that cannot be written never stops the proxy.
// A full disk, a pipe nobody reads, an I/O error: sonic-boom reports each failed write as an 'error' event,
// which unheard would end the process, and keeps the failed lines to try again with the next write. What
// waits is bounded (`maxLength`): beyond it sonic-boom drops lines, which are counted here, and the first
// failure is said once on stderr, where systemd's journal still has room. When the destination takes lines
// again, that is said too. sonic-boom 5 throws from `flushSync` on such an error, and after `maxWriteRetries`
// on a busy one, instead of retrying it for ever, so the exit flush (log.ts) cannot hang.
// A file that cannot be opened at all (no permission, a read-only file system, as the unit's ProtectSystem=strict
// makes of most paths) is a log that cannot be written like the others: sonic-boom would write to the file
// descriptor -1 of its failed open and throw, so its lines are dropped and counted here instead, and the file is
// opened again every 10 s and on `reopen` until it opens. `reopen` (SIGHUP, after logrotate moved the file away)
// opens the file anew: lines go to the new file once it is open; one that cannot be opened leaves the old one in use.
import sonicBoom, { type SonicBoom, type SonicBoomOpts } from 'sonic-boom';

// The package's types predate `maxWriteRetries` (sonic-boom 5), which its code has.
type Options = SonicBoomOpts & { maxWriteRetries: number };

/** Lines waiting for a destination that does not take them, at most: about 4,000 access lines. */
const WAITING_BYTES = 1024 * 1024;
/** Tries of a write the destination refuses for now (EAGAIN: a pipe nobody reads) before it counts as failed: 2 s. */
const BUSY_RETRIES = 20;
/** How often a file that could not be opened is tried again. */
const OPEN_RETRY_MS = 10_000;

export interface LogDestination {
  write(text: string): void;
  /** Writes what waits, synchronously; throws when the destination does not take it. */
  flushSync(): void;
  /** Opens the file again under its name (after logrotate moved it away); nothing for stdout. */
  reopen(): void;
  /** Lines given up so far, while the destination did not take them. */
  readonly dropped: number;
}

/** `file` appended to (its folder made if missing), or stdout. `say` gets the notices (stderr). */
export function logDestination(file: string | undefined, say: (line: string) => void = (line) => process.stderr.write(line)): LogDestination {
  const where = file ?? 'stdout';
  let dropped = 0;
  let failing = false;
  const failed = (e: NodeJS.ErrnoException) => {
    if (failing) return;
    failing = true;
    say(`finanzamt: the log (${where}) cannot be written (${e.code ?? e.message}); the proxy keeps serving and drops log lines, `
      + 'counted in finanzamt_log_lines_dropped_total, until it can\n');
  };
  const boom = (dest: string | number) => {
    const options: Options = { dest, sync: false, mkdir: true, maxLength: WAITING_BYTES, maxWriteRetries: BUSY_RETRIES };
    const made = new sonicBoom.SonicBoom(options);
    made.on('drop', (text: string) => {
      dropped += lineCount(text);
    });
    made.on('write', () => {
      if (!failing) return;
      failing = false;
      say(`finanzamt: the log (${where}) is written again; ${dropped} lines were dropped so far\n`);
    });
    return made;
  };

  if (file === undefined) {
    const stdout = boom(1);
    stdout.on('error', failed);
    return { write: (text) => { stdout.write(text); }, flushSync: () => stdout.flushSync(), reopen: () => {}, get dropped() { return dropped; } };
  }

  /** The file's destination; null while the file could not be opened. */
  let current: SonicBoom | null = null;
  /**
   * Lines handed to `current` before its file was open, lost if it does not open; null once it is. A count, not the
   * lines: an open that hangs (a stuck network file system) would otherwise keep every line in memory.
   */
  let linesBeforeOpen: number | null = null;
  let reopening = false;
  let retry: NodeJS.Timeout | null = null;

  const open = () => {
    if (retry !== null) clearTimeout(retry);
    retry = null;
    const opening = boom(file);
    current = opening;
    linesBeforeOpen = 0;
    opening.once('ready', () => { linesBeforeOpen = null; });
    opening.on('error', (e: NodeJS.ErrnoException) => {
      // First the open: a SIGHUP while it was under way leaves no file open before to go on into.
      if (linesBeforeOpen !== null) {
        dropped += linesBeforeOpen;
        current = null;
        linesBeforeOpen = null;
        reopening = false;
        failed(e);
        retry = setTimeout(open, OPEN_RETRY_MS);
        retry.unref();
      } else if (reopening) {
        reopening = false;
        say(`finanzamt: the log (${where}) cannot be opened again (${e.code ?? e.message}); it goes on into the file open before\n`);
      } else {
        failed(e);
      }
    });
  };
  open();

  return {
    write: (text) => {
      if (current === null) {
        dropped += lineCount(text);
        return;
      }
      if (linesBeforeOpen !== null) linesBeforeOpen += lineCount(text);
      current.write(text);
    },
    flushSync: () => {
      if (current !== null && linesBeforeOpen === null) current.flushSync();
    },
    reopen: () => {
      if (current === null) {
        open();
        return;
      }
      reopening = true;
      current.once('ready', () => { reopening = false; });
      current.reopen();
    },
    get dropped() {
      return dropped;
    },
  };
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
