// What the whole test run leaves for its last check (test/last/secrets.test.ts): every key issued
// to a test, and every file a proxy wrote (its log file, and its stdout and stderr saved when it ended). The
// directory is made by the global setup and named in FINANZAMT_TEST_RECORD; without it nothing is recorded.
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEYS = 'keys';
const FILES = 'files';

function dir(): string | undefined {
  return process.env.FINANZAMT_TEST_RECORD;
}

/** A new file name in the record directory, which the global teardown removes with everything in it. */
export function recordFile(name: string): string {
  const d = dir();
  if (!d) throw new Error('FINANZAMT_TEST_RECORD is not set: run the tests through vitest, whose global setup makes it');
  return join(d, `${randomUUID()}-${name}`);
}

export function rememberKey(key: string): void {
  const d = dir();
  if (d) appendFileSync(join(d, KEYS), `${key}\n`);
}

/** A proxy's log file, remembered when it starts: it is read at the end of the run, where it is then. */
export function rememberProxyLog(logFile: string): void {
  const d = dir();
  if (d) appendFileSync(join(d, FILES), `${logFile}\n`);
}

/** All a proxy printed (stdout and stderr), saved once it has ended, as `output-<name>.txt`. */
export function rememberProxyOutput(name: string, output: string): void {
  const d = dir();
  if (!d) return;
  const file = join(d, `output-${name}.txt`);
  writeFileSync(file, output);
  appendFileSync(join(d, FILES), `${file}\n`);
}

export function recorded(): { keys: string[]; files: string[] } {
  const d = dir();
  if (!d) throw new Error('FINANZAMT_TEST_RECORD is not set: run the whole suite (npm test)');
  const lines = (name: string) => (existsSync(join(d, name)) ? readFileSync(join(d, name), 'utf8').split('\n').filter(Boolean) : []);
  return { keys: lines(KEYS), files: lines(FILES) };
}
