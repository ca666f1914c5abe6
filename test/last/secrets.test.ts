// The last check of a test run: nothing any proxy of the whole suite wrote (its log file, its stdout and
// stderr) holds any key issued to a test, whole or in part. The suite gave keys to callers in every way there
// is, proper and improper, to dozens of proxies, so this reads far more than the secrets test's own proxy.
// It runs after all other tests (vitest.config.ts) and reads what test/support/record.ts recorded.
import { createReadStream, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recorded } from '../support/record.ts';

/** As in secrets.test.ts: pieces this long of a key's random part count as a leak. */
const PIECE = 16;
/** Runs of key characters: a piece of a key can only be inside one. */
const RUN = new RegExp(`[A-Za-z0-9_-]{${PIECE},}`, 'g');

describe('everything the proxies of this run wrote', () => {
  it('holds no key issued during the run, nor any piece of one', async () => {
    const { keys, files } = recorded();
    // `npm test` issues dozens of keys; `npm run test:load` one to each of its three proxies.
    expect(keys.length).toBeGreaterThanOrEqual(3);
    const pieces = new Map<string, string>();
    for (const key of keys) {
      const random = key.slice(3);
      for (let i = 0; i + PIECE <= random.length; i++) pieces.set(random.slice(i, i + PIECE), key);
    }
    let lines = 0;
    let read = 0;
    const leaks: string[] = [];
    for (const file of files.filter((f) => existsSync(f))) {
      read++;
      let rest = '';
      for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 22 })) {
        // Whole lines only: a run of key characters never spans a line.
        const text = rest + (chunk as string);
        const end = text.lastIndexOf('\n') + 1;
        rest = text.slice(end);
        lines += scan(text.slice(0, end), pieces, file, leaks);
      }
      lines += scan(rest, pieces, file, leaks);
    }
    console.log(`suite secrets: ${keys.length} keys issued, ${read} files the proxies wrote, ${lines} lines, ${leaks.length} leaks`);
    // Not vacuous: the proxies of the run wrote a great deal: about 24,000 lines in `npm test`, and the access logs
    // of the load tests above all in `npm run test:load`.
    expect(read).toBeGreaterThanOrEqual(3);
    expect(lines).toBeGreaterThan(10_000);
    expect(leaks).toEqual([]);
  }, 5 * 60_000);
});

/** Adds a line to `leaks` for every run of key characters in `text` that holds a piece of a key; returns the line count. */
function scan(text: string, pieces: Map<string, string>, file: string, leaks: string[]): number {
  for (const [run] of text.matchAll(RUN)) {
    for (let i = 0; i + PIECE <= run.length; i++) {
      const key = pieces.get(run.slice(i, i + PIECE));
      if (key !== undefined) leaks.push(`${file}: a piece of ${key.slice(0, 6)}… in "${run.slice(0, 80)}"`);
    }
  }
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
