// The run's last check of its temporary directory: once every other test file is done, the directory the global
// setup made for the run (and pointed TMPDIR at, so every test and every process it started wrote its scratch
// files there) holds nothing but what the setup made itself and the tools' caches. It runs after all other
// tests (vitest.config.ts); what the files running with it leave, the global teardown finds.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leftovers, RECORD } from '../support/leftovers.ts';

describe('the temporary directory of the run, after every other test file', () => {
  it('holds nothing that the run did not find there', () => {
    const run = process.env.FINANZAMT_TEST_RUN;
    if (!run) throw new Error('FINANZAMT_TEST_RUN is not set: run the tests through vitest, whose global setup makes it');
    // The directory every test and every process they started took as os.tmpdir(), and the one the setup made.
    expect(tmpdir()).toBe(run);
    expect(existsSync(join(run, RECORD))).toBe(true);
    expect(leftovers(run)).toEqual([]);
  });
});
