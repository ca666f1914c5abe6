// After a version load the proxy asks V8 to collect everything and give the freed pages back
// (proxy/versions/returnFreedMemory.ts): garbage of the size a load leaves must leave the resident size with it.
import { describe, expect, it } from 'vitest';
import { returnFreedMemory } from '../../proxy/versions/returnFreedMemory.ts';

describe('returning freed memory', () => {
  it('gives back the pages of garbage as large as a parsed manifest', async () => {
    // About 100 MB of small objects, the shape a parsed manifest has, kept past a few collections.
    let garbage: { n: number; text: string }[] | null = Array.from({ length: 1_500_000 }, (_, n) => ({ n, text: `entry ${n}` }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(garbage.length).toBe(1_500_000);
    garbage = null;
    const r = await returnFreedMemory();
    expect(r.rssBefore - r.rssAfter).toBeGreaterThan(50);
    expect(Math.round(process.memoryUsage.rss() / 2 ** 20)).toBeLessThanOrEqual(r.rssAfter + 5);
  });
});
