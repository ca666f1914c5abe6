// The keys file's lock (proxy/keys/keysFileLock.ts) where an age-based lock lost key changes: a lock left by a
// killed command, taken over by several commands at once, and commands whose clock is ahead meeting a live lock.
// Each command is a process of its own, as every `finanzamt keys` command is (test/support/keysCommands/). The
// rounds repeat so that a loss in one round of four would be missed with a chance of (3/4)^24, about 0.1 %.
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey, readKeysFile } from '../../proxy/keys/keysFile.ts';
import { Adder, Holder } from '../support/keysCommands/processes.ts';
import { scratchDir } from '../support/proxy.ts';

const COMMANDS = 8;
const ROUNDS = 24;
const CLOCK_AHEAD_MS = 30_000;
/** Time for the commands of a round to meet the held lock: an age-based lock takes it at once. */
const MEETING_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The values of commands run beside something that may fail first; awaited to the end so none rejects unheard. */
function values<T>(settled: PromiseSettledResult<T>[]): T[] {
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

async function hashesIn(keysFile: string): Promise<string[]> {
  return (await readKeysFile(keysFile)).keys.map((k) => k.hash).sort();
}

describe('a lock left by a killed command', () => {
  let adders: Adder[];
  beforeAll(() => { adders = Array.from({ length: COMMANDS }, () => new Adder()); });
  afterAll(async () => { await Promise.all(adders.map((a) => a.end())); });

  it(`is taken over by one command at a time: ${COMMANDS} parallel keys add all land, in each of ${ROUNDS} rounds`, async () => {
    // One command holding the lock of each round's keys file, killed: a lock left behind for every round.
    const dirs = Array.from({ length: ROUNDS }, () => scratchDir());
    const holder = new Holder();
    for (const dir of dirs) await holder.hold(join(dir, 'keys.json'));
    await holder.process.kill();
    // Killed a minute ago, which an age-based lock takes for stale at once.
    const past = new Date(Date.now() - 60_000);
    for (const dir of dirs) utimesSync(join(dir, 'keys.json.lock'), past, past);
    for (const [round, dir] of dirs.entries()) {
      const keysFile = join(dir, 'keys.json');
      const printed = await Promise.all(adders.map((adder, i) => adder.add(keysFile, `round-${round}-${i}`)));
      expect(await hashesIn(keysFile), `round ${round}`).toEqual(printed.map(hashKey).sort());
      expect(readdirSync(dir)).toEqual(['keys.json']);
    }
  }, 180_000);
});

describe(`commands whose clock is ${CLOCK_AHEAD_MS / 1000} s ahead`, () => {
  let adders: Adder[];
  let holder: Holder;
  let keysFile: string;
  beforeAll(() => {
    adders = Array.from({ length: COMMANDS }, () => new Adder(CLOCK_AHEAD_MS));
    keysFile = join(scratchDir(), 'keys.json');
    holder = new Holder();
  });
  afterAll(async () => { await Promise.all([...adders.map((a) => a.end()), holder.process.end()]); });

  it(`wait for a live lock: the holder's key and those of ${COMMANDS} parallel keys add all land, in each of ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await holder.lock(keysFile);
      const adding = Promise.allSettled(adders.map((adder, i) => adder.add(keysFile, `ahead-${round}-${i}`)));
      await sleep(MEETING_MS);
      const held = await holder.addAndRelease(`holder-${round}`).finally(() => adding);
      const printed = values(await adding);
      const before = round * (COMMANDS + 1);
      const hashes = await hashesIn(keysFile);
      expect(hashes, `round ${round}`).toHaveLength(before + COMMANDS + 1);
      expect(hashes).toEqual(expect.arrayContaining([held, ...printed].map(hashKey)));
    }
  }, 180_000);

  it('leave the holder its lock however long it holds it, and the holder lives', async () => {
    await holder.lock(keysFile);
    const adding = Promise.allSettled([adders[0]!.add(keysFile, 'after-a-long-hold')]);
    // Longer than an age-based lock waits before refreshing its age (5 s), which fails once the lock was taken.
    await sleep(6_000);
    const held = await holder.addAndRelease('long-hold').finally(() => adding);
    const [printed] = values(await adding);
    expect(await hashesIn(keysFile)).toEqual(expect.arrayContaining([held, printed!].map(hashKey)));
    expect(holder.process.child.exitCode).toBeNull();
  }, 30_000);
});
