// The release of a real month: from the version built from the frozen bundle of November 2025 to the one built from
// that of September 2026 (both built by the global setup), `finanzamt diff` prints the record committed with that
// release (data/CHANGES-2026-09.md), and the release's check and publish guard pass without --force. The record
// was made from data/ as shipped in September 2026, whose build inputs the frozen 2026 bundle keeps byte for byte;
// data/ itself moves on with each month, so nothing here reads it but the record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffDirectories } from '../../build/diff/diffDirectories.ts';
import { formatDiff } from '../../build/diff/formatDiff.ts';
import { assertPublishable } from '../../build/guard/guard.ts';
import { localPublished } from '../../build/guard/published.ts';
import { checkData } from '../../build/release/checkData.ts';
import { readBundle } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { testDist } from '../support/tree.ts';
import { runCli } from './support/cli.ts';
import { BUILD_DEFAULTS } from '../../core/options.ts';

const DATA = fileURLToPath(new URL('../../data', import.meta.url));
const RECORD = join(DATA, 'CHANGES-2026-09.md');

/** The text of the record's one ```text block: what `finanzamt diff` printed, without the final newline. */
function recordedDiff(): string {
  const m = /\n```text\n([\s\S]*?)\n```\n/.exec(readFileSync(RECORD, 'utf8'));
  if (!m) throw new Error(`${RECORD} has no \`\`\`text block`);
  return m[1]!;
}

describe('the release of September 2026', () => {
  it('prints, with `finanzamt diff` between the two versions, exactly the record committed as data/CHANGES-2026-09.md', async () => {
    const record = recordedDiff();
    expect(record.split('\n')[0]).toBe('20251130_0000 → 20260902_0000: offices +0 -7 renamed 25 changed 592; municipalities +1 -11 reassigned 55; postal codes +0 -0 changed 12');
    const run = await runCli(['diff', testDist('2025'), testDist('2026')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.replace(/\n$/, '')).toBe(record);
    // The release's diff step formats the same diff (build/release/runRelease.ts).
    const [before, after] = await Promise.all([localPublished(testDist('2025')), localPublished(testDist('2026'))]);
    expect(formatDiff(diffDirectories(await before!.directory(), await after!.directory()))).toBe(record);
  });

  it("passes the release's check and publish guard from 2025 to 2026 without --force", async () => {
    const [before, after] = await Promise.all([localPublished(testDist('2025')), localPublished(testDist('2026'))]);
    expect([before!.version, after!.version]).toEqual(['20251130_0000', '20260902_0000']);
    const guard = { maxDrop: BUILD_DEFAULTS.maxDropPercent, force: false };
    expect(assertPublishable(before!.counts, after!.counts, guard)).toEqual([]);
    expect(after!.counts).toMatchObject({ municipalities: 10943, offices: 594, cross_check: { agreement_percent: before!.counts.cross_check!.agreement_percent } });
    const check = checkData({
      directory: await after!.directory(), counts: after!.counts, gv100ad: (await readBundle(FROZEN_BUNDLES['2026'])).gv100ad,
      published: before!.counts, maxChange: BUILD_DEFAULTS.maxDropPercent,
    });
    expect(check.problems).toEqual([]);
    expect(check.outOfBounds).toEqual([]);
    expect(check.summary).toContain(`counts within ±${BUILD_DEFAULTS.maxDropPercent}% of the published version`);
  });
});
