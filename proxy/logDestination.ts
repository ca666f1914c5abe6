// Where the log lines go (a file or stdout), made so that a log that cannot be written never stops the proxy.
// A full disk, a pipe nobody reads, an I/O error: sonic-boom reports each failed write as an 'error' event,
// which unheard would end the process, and keeps the failed lines to try again with the next write. What
// waits is bounded (`maxLength`): beyond it sonic-boom drops lines, which are counted here, and the first
// failure is said once on stderr, where systemd's journal still has room. When the destination takes lines
// again, that is said too. sonic-boom 5 throws from `flushSync` on such an error, and after `maxWriteRetries`
// on a busy one, instead of retrying it for ever, so the exit flush (log.ts) cannot hang.
import sonicBoom, { type SonicBoomOpts } from 'sonic-boom';

// The package's types predate `maxWriteRetries` (sonic-boom 5), which its code has.
type Options = SonicBoomOpts & { maxWriteRetries: number };

/** Lines waiting for a destination that does not take them, at most: about 4,000 access lines. */
const WAITING_BYTES = 1024 * 1024;
/** Tries of a write the destination refuses for now (EAGAIN: a pipe nobody reads) before it counts as failed: 2 s. */
const BUSY_RETRIES = 20;

export interface LogDestination {
  write(text: string): void;
  /** Writes what waits, synchronously; throws when the destination does not take it. */
  flushSync(): void;
  /** Lines given up so far, while the destination did not take them. */
  readonly dropped: number;
}

/** `file` appended to (its folder made if missing), or stdout. `say` gets the two notices (stderr). */
export function logDestination(file: string | undefined, say: (line: string) => void = (line) => process.stderr.write(line)): LogDestination {
  const where = file ?? 'stdout';
  const options: Options = { dest: file ?? 1, sync: false, mkdir: true, maxLength: WAITING_BYTES, maxWriteRetries: BUSY_RETRIES };
  const boom = new sonicBoom.SonicBoom(options);
  let dropped = 0;
  let failing = false;
  boom.on('drop', (text: string) => {
    dropped += lineCount(text);
  });
  boom.on('error', (e: NodeJS.ErrnoException) => {
    if (failing) return;
    failing = true;
    say(`finanzamt: the log (${where}) cannot be written (${e.code ?? e.message}); the proxy keeps serving and drops log lines, `
      + 'counted in finanzamt_log_lines_dropped_total, until it can\n');
  });
  boom.on('write', () => {
    if (!failing) return;
    failing = false;
    say(`finanzamt: the log (${where}) is written again; ${dropped} lines were dropped so far\n`);
  });
  return {
    write: (text) => {
      boom.write(text);
    },
    flushSync: () => boom.flushSync(),
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
