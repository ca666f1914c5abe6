// Usage per key, read from the access log: every answer to a request with a known key is a line there with
// the key's id ("key") and the time, so the log already holds what `finanzamt keys list` shows, with nothing
// more to write on the request path, the same for one process or several writing one log, and kept as long as
// the operator keeps the log (rotated files can be given together). The metrics count the same per key name.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface KeyUsage {
  /** Answers in the 24 hours before `now`. */
  requests: number;
  /** Of those, answers with a status of 400 or above. */
  refused: number;
  /** The latest answer, in milliseconds since the epoch. */
  lastUse: number;
}

const DAY_MS = 86_400_000;
/** Only access lines of a request with a key are read as JSON; the rest is passed over by this test. */
const WITH_KEY = '"key":"k_';

/** Key id → usage, from the access logs `files` (a file that does not exist holds no lines). */
export async function keyUsage(files: string[], now: number): Promise<Map<string, KeyUsage>> {
  const usage = new Map<string, KeyUsage>();
  for (const file of files) {
    for await (const line of linesOf(file)) {
      if (!line.includes(WITH_KEY)) continue;
      const entry = accessEntry(line);
      if (entry === null) continue;
      let u = usage.get(entry.key);
      if (u === undefined) usage.set(entry.key, u = { requests: 0, refused: 0, lastUse: 0 });
      u.lastUse = Math.max(u.lastUse, entry.time);
      if (entry.time > now - DAY_MS && entry.time <= now) {
        u.requests++;
        if (entry.status >= 400) u.refused++;
      }
    }
  }
  return usage;
}

function accessEntry(line: string): { key: string; time: number; status: number } | null {
  try {
    const { key, time, status } = JSON.parse(line) as Record<string, unknown>;
    return typeof key === 'string' && typeof time === 'number' && typeof status === 'number' ? { key, time, status } : null;
  } catch {
    return null; // a line cut off by a crash
  }
}

async function* linesOf(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, 'utf8');
  const missing = new Promise<boolean>((resolve) => {
    stream.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ENOENT'));
    stream.once('open', () => resolve(false));
  });
  if (await missing) return;
  yield* createInterface({ input: stream, crlfDelay: Infinity });
}
