// The one helper that keeps the keys file, the published version and the shared keys from being read twice
// at once, while still reading once more after a change that arrived during a read.
import { describe, expect, it } from 'vitest';
import { coalesced } from '../../proxy/watch/coalesced.ts';

describe('coalesced', () => {
  it('never runs twice at once; any number of calls during a run lead to exactly one run after it', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let release!: () => void;
    const run = coalesced(async () => {
      runs++;
      most = Math.max(most, ++running);
      await new Promise<void>((r) => (release = r));
      running--;
    });
    let settled = 0;
    const first = run();
    const during = [run(), run(), run()];
    for (const p of during) void p.then(() => settled++);
    expect(new Set(during).size).toBe(1);
    expect(during[0]).not.toBe(first);
    release();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(2);
    // The calls made during the first run wait for the run that saw their change.
    expect(settled).toBe(0);
    release();
    await Promise.all(during);
    expect(settled).toBe(3);
    expect(most).toBe(1);
    expect(runs).toBe(2);
  });

  it('runs again after a failed run, and the failure reaches the caller', async () => {
    let runs = 0;
    const run = coalesced(async () => {
      if (++runs === 1) throw new Error('first read failed');
    });
    await expect(run()).rejects.toThrow('first read failed');
    await run();
    expect(runs).toBe(2);
  });
});
