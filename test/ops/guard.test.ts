// The publish guard on the build: a bundle whose GV100AD lost a third of its municipalities, built over a
// published version, is refused and changes nothing; with --force it is published, and its report carries
// the diff against the version it replaced.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPublishable, findDrops, GuardError } from '../../build/guard/guard.ts';
import { testTree } from '../support/tree.ts';
import { editedBundle, keepMunicipalities } from './support/bundles.ts';

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-guard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const VERSION = '20251130_0000';
const published = { municipalities: 10953, rows: 12881, postal_codes: 8215, offices: 601, offices_with_district: 521 };

describe('findDrops', () => {
  it('names every count that fell past the limit, and no count that rose or fell less', () => {
    const next = { ...published, municipalities: 9000, rows: 12300, offices: 700 };
    expect(findDrops(published, next, 5)).toEqual([{ count: 'municipalities', before: 10953, after: 9000, percent: expect.closeTo(-17.83, 2) }]);
    expect(findDrops(published, next, 20)).toEqual([]);
    expect(() => assertPublishable(published, next, { maxDrop: 5, force: false })).toThrow(
      'refusing to publish: municipalities fell from 10953 to 9000 (-17.8%, limit 5%); use --force to publish anyway');
    expect(assertPublishable(published, next, { maxDrop: 5, force: true })).toHaveLength(1);
    expect(assertPublishable(null, next, { maxDrop: 5, force: false })).toEqual([]);
  });

  it('refuses a drop of just over the limit and passes one of exactly the limit', () => {
    expect(() => assertPublishable({ ...published, offices: 100 }, { ...published, offices: 94 }, { maxDrop: 5, force: false })).toThrow(GuardError);
    expect(assertPublishable({ ...published, offices: 100 }, { ...published, offices: 95 }, { maxDrop: 5, force: false })).toEqual([]);
  });
});

describe('the cross-check guard (rule 9)', () => {
  const at = (agreement_percent: number) => ({ ...published, cross_check: { agreement_percent } });

  it('refuses a fall in agreement of more than one percentage point, passes one point, and yields to --force', () => {
    expect(findDrops(at(94.8), at(93.79), 5)).toEqual([{ count: 'cross_check_agreement', before: 94.8, after: 93.79, percent: expect.closeTo(-1.01, 2) }]);
    expect(findDrops(at(94.8), at(93.8), 5)).toEqual([]);
    expect(findDrops(at(94.8), at(99), 5)).toEqual([]);
    expect(() => assertPublishable(at(94.8), at(90.8), { maxDrop: 5, force: false })).toThrow(
      'refusing to publish: cross-check agreement fell from 94.8% to 90.8% (-4.00 percentage points, limit 1); use --force to publish anyway');
    expect(assertPublishable(at(94.8), at(90.8), { maxDrop: 5, force: true })).toHaveLength(1);
  });

  it('compares nothing against a report written before the cross-check existed', () => {
    expect(findDrops(published, at(50), 5)).toEqual([]);
  });
});

describe('the build guard', () => {
  let out: string;
  let source: string;
  const build = (...extra: string[]) => spawnSync(process.execPath,
    ['bin/finanzamt.mjs', 'build', '--source', source, '--out', out, ...extra], { encoding: 'utf8' });
  const currentReport = () => JSON.parse(readFileSync(join(out, 'current', 'report.json'), 'utf8'));

  beforeAll(() => {
    // What the guard and the diff read of the published version: its report and directory (and the manifest
    // that marks it complete); the bodies play no part.
    out = join(scratch, 'dist');
    mkdirSync(join(out, VERSION), { recursive: true });
    for (const file of ['report.json', 'directory.json', 'manifest.json']) copyFileSync(join(testTree().root, file), join(out, VERSION, file));
    symlinkSync(VERSION, join(out, 'current'));
    source = editedBundle(join(scratch, 'truncated'), { gv100ad: keepMunicipalities((_, i) => i % 3 !== 0) });
  });

  it('refuses a truncated GV100AD, names the drop, and publishes nothing', () => {
    const result = build();
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/refusing to publish: municipalities fell from 10953 to 7302 \(-33\.3%, limit 5%\); .*use --force to publish anyway/);
    expect(result.stderr).toMatch(/postal codes fell from 8215 to \d+ \(-\d+\.\d%, limit 5%\)/);
    expect(readlinkSync(join(out, 'current'))).toBe(VERSION);
    expect(currentReport().municipalities).toBe(10953);
    expect(readdirSync(out).sort()).toEqual([VERSION, 'current']);
  });

  it('publishes it with a higher --max-drop or with --force, with the diff in its report', () => {
    const lenient = build('--max-drop', '20');
    expect(lenient.status).toBe(1);
    expect(lenient.stderr).toContain('municipalities fell from 10953 to 7302 (-33.3%, limit 20%)');

    const forced = build('--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('published despite the guard (--force): municipalities fell from 10953 to 7302');
    expect(forced.stdout).toContain('changes since 20251130_0000: offices +0 -0');
    const report = currentReport();
    expect(report.municipalities).toBe(7302);
    expect(report.diff.summary.municipalities_removed).toBe(10953 - 7302);
    expect(report.diff.municipalities.removed).toHaveLength(10953 - 7302);
  }, 3 * 60_000); // a whole (shortened) build: 40 s on a busy CI machine
});

describe('the build guard on the cross-check', () => {
  let out: string;
  const build = (...extra: string[]) => spawnSync(process.execPath, ['bin/finanzamt.mjs', 'build', '--out', out, ...extra], { encoding: 'utf8' });

  beforeAll(() => {
    // The published version claims an agreement two points above what the shipped bundle reaches: to the guard
    // the same bundle is then a version whose assignment got worse.
    out = join(scratch, 'agreement');
    mkdirSync(join(out, VERSION), { recursive: true });
    for (const file of ['directory.json', 'manifest.json']) copyFileSync(join(testTree().root, file), join(out, VERSION, file));
    const report = JSON.parse(readFileSync(join(testTree().root, 'report.json'), 'utf8'));
    report.cross_check.agreement_percent += 2;
    writeFileSync(join(out, VERSION, 'report.json'), JSON.stringify(report));
    symlinkSync(VERSION, join(out, 'current'));
  });

  it('refuses a version whose agreement fell by more than one point, and publishes it with --force', () => {
    const refused = build();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/refusing to publish: cross-check agreement fell from [\d.]+% to [\d.]+% \(-2\.00 percentage points, limit 1\)/);
    expect(readdirSync(out).sort()).toEqual([VERSION, 'current']);
    const forced = build('--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('published despite the guard (--force): cross-check agreement fell');
  }, 3 * 60_000); // two whole builds
});
