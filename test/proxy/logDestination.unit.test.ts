// A log file that cannot be opened (proxy/logDestination.ts): its lines are dropped and counted, and the file is
// opened again later, also where a SIGHUP came while its first open was under way.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logDestination } from '../../proxy/logDestination.ts';
import { eventually } from '../support/http.ts';

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-log-destination-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A log file whose folder is a file: it cannot be opened until the file is removed and the folder made. */
function unopenable(): { file: string; blocker: string } {
  const blocker = join(scratch, Math.random().toString(36).slice(2));
  writeFileSync(blocker, '');
  return { file: join(blocker, 'proxy.log'), blocker };
}

describe('a log file that cannot be opened', () => {
  it('drops and counts the lines written while it opened, and opens on reopen once it can', async () => {
    const { file, blocker } = unopenable();
    const said: string[] = [];
    const log = logDestination(file, (line) => said.push(line));
    log.write('one\ntwo\n');
    log.write('three\n');
    await eventually('the failed open', async () => log.dropped === 3, 5_000);
    expect(said.join('')).toMatch(/cannot be written \(E[A-Z]+\)/);
    rmSync(blocker);
    log.reopen();
    log.write('four\n');
    await eventually('the line in the file', async () => {
      try {
        return readFileSync(file, 'utf8') === 'four\n';
      } catch {
        return false;
      }
    }, 5_000);
  });

  it('counts it as a failed open, not a failed reopen, when a SIGHUP came while it opened', async () => {
    const { file } = unopenable();
    const said: string[] = [];
    const log = logDestination(file, (line) => said.push(line));
    log.reopen();
    log.write('one\n');
    await eventually('the failed open', async () => log.dropped === 1, 5_000);
    expect(said.join('')).toMatch(/cannot be written \(E[A-Z]+\)/);
    expect(said.join('')).not.toMatch(/opened again/);
    // Dropped at once while no file is open, not kept for a file that is not there.
    log.write('two\nthree\n');
    expect(log.dropped).toBe(3);
  });
});
