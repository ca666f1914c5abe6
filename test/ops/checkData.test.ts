// The release's data checks on the test tree's directory and the GV100AD it was built from, and on copies of them
// with one thing broken.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Directory } from '../../core/model.ts';
import { GuardCounts } from '../../build/guard/guard.ts';
import { checkData, type DataCheckInput } from '../../build/release/checkData.ts';
import { readBundle } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLE } from '../support/frozenBundle.ts';
import { testTree } from '../support/tree.ts';

let input: DataCheckInput;

beforeAll(async () => {
  const tree = testTree();
  const counts = GuardCounts.parse(JSON.parse(readFileSync(join(tree.root, 'report.json'), 'utf8')));
  input = { directory: tree.directory, counts, gv100ad: (await readBundle(FROZEN_BUNDLE)).gv100ad, published: counts, maxChange: 5 };
});

/** The directory with the municipality at `index` changed by `change`. */
function withMunicipality(index: number, change: (m: Directory['municipalities'][number]) => Partial<Directory['municipalities'][number]>): Directory {
  const municipalities = input.directory.municipalities.map((m, i) => (i === index ? { ...m, ...change(m) } : m));
  return { ...input.directory, municipalities };
}

describe('checkData', () => {
  it('passes the test tree against its own counts; what lacks an office there is uninhabited', () => {
    const result = checkData(input);
    expect(result.problems).toEqual([]);
    expect(result.outOfBounds).toEqual([]);
    const without = input.directory.municipalities.filter((m) => m.bufa_nr.length === 0);
    expect(without.length).toBeGreaterThan(0);
    expect(result.summary).toContain(`, ${without.length} without an office (uninhabited: ${without.length})`);
  });

  it('names an inhabited municipality without an office', () => {
    const index = input.directory.municipalities.findIndex((m) => m.bufa_nr.length > 0);
    const m = input.directory.municipalities[index]!;
    const { problems } = checkData({ ...input, directory: withMunicipality(index, () => ({ bufa_nr: [], herkunft: [] })) });
    expect(problems).toEqual([`inhabited municipality ${m.ags} (${m.name}) has no office`]);
  });

  it('names an office number that the office list lacks', () => {
    const m = input.directory.municipalities[0]!;
    const { problems } = checkData({ ...input, directory: withMunicipality(0, (m) => ({ bufa_nr: ['0000', ...m.bufa_nr.slice(1)] })) });
    expect(problems).toEqual([`municipality ${m.ags} (${m.name}) names office 0000, which the office list lacks`]);
  });

  it('names counts that rose or fell past the limit against the published version, and none without one', () => {
    const counts = input.counts;
    const published = { ...counts, municipalities: Math.round(counts.municipalities / 1.2), offices: Math.round(counts.offices * 1.1) };
    const { outOfBounds } = checkData({ ...input, published });
    expect(outOfBounds).toEqual([
      `municipalities changed from ${published.municipalities} to ${counts.municipalities} (+${((counts.municipalities / published.municipalities - 1) * 100).toFixed(1)}%, limit ±5%)`,
      `offices changed from ${published.offices} to ${counts.offices} (${((counts.offices / published.offices - 1) * 100).toFixed(1)}%, limit ±5%)`,
    ]);
    expect(checkData({ ...input, published: null }).outOfBounds).toEqual([]);
  });
});

