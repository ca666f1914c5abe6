// The publish guard on the build: a bundle whose GV100AD lost a third of its municipalities, built over a
// published version, is refused and changes nothing; with --force it is published, and its report carries
// the diff against the version it replaced. Likewise a bundle whose assignment agrees less with the 2021
// postal-code file. The builds are of Saarland's municipalities from the frozen test bundle: the guard compares
// counts, which a small real build has as well as the whole country's, and it builds in seconds.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPublishable, findDrops, GuardError } from '../../build/guard/guard.ts';
import { Directory } from '../../core/model.ts';
import { assignOffices, editedBundle, keepMunicipalities, municipalityRecords, saarlandBundle } from '../support/bundles.ts';

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

/**
 * A published version to build over: the three files of Saarland's build that the guard and the diff read (its
 * report, its directory and the manifest that marks it complete); the bodies play no part.
 */
function publishedVersion(name: string): string {
  const out = join(scratch, name);
  mkdirSync(join(out, VERSION), { recursive: true });
  for (const file of ['report.json', 'directory.json', 'manifest.json']) copyFileSync(join(saarlandDist, VERSION, file), join(out, VERSION, file));
  symlinkSync(VERSION, join(out, 'current'));
  return out;
}

const reportOf = (out: string) => JSON.parse(readFileSync(join(out, 'current', 'report.json'), 'utf8'));
const build = (source: string, out: string, ...extra: string[]) => spawnSync(process.execPath,
  ['bin/finanzamt.mjs', 'build', '--source', source, '--out', out, ...extra], { encoding: 'utf8' });

// The version the guard compares with: Saarland's municipalities and offices, built for real.
let saarland: string;
let saarlandDist: string;
beforeAll(() => {
  saarland = saarlandBundle(join(scratch, 'saarland'), VERSION, { ownOffices: true });
  saarlandDist = join(scratch, 'saarland-dist');
  const built = build(saarland, saarlandDist);
  expect(built.status, built.stderr).toBe(0);
}, 3 * 60_000);

describe('the build guard', () => {
  let out: string;
  let source: string;
  let before: number;
  let after: number;
  /** The fall in percent of the published count, as the guard names it. */
  let percent: string;

  beforeAll(() => {
    out = publishedVersion('dist');
    source = editedBundle(join(scratch, 'truncated'), { gv100ad: keepMunicipalities((_, i) => i % 3 !== 0) }, saarland);
    before = municipalityRecords(saarland).length;
    after = municipalityRecords(source).length;
    percent = (((after - before) / before) * 100).toFixed(1);
    expect(reportOf(out).municipalities).toBe(before);
  });

  it('refuses a truncated GV100AD, names the drop, and publishes nothing', () => {
    const result = build(source, out);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`refusing to publish: municipalities fell from ${before} to ${after} (${percent}%, limit 5%); `);
    expect(result.stderr).toContain('; use --force to publish anyway');
    expect(result.stderr).toMatch(new RegExp(`postal codes fell from ${reportOf(out).postal_codes} to \\d+ \\(-\\d+\\.\\d%, limit 5%\\)`));
    expect(readlinkSync(join(out, 'current'))).toBe(VERSION);
    expect(reportOf(out).municipalities).toBe(before);
    expect(readdirSync(out).sort()).toEqual([VERSION, 'current']);
  });

  it('publishes it with a higher --max-drop or with --force, with the diff in its report', () => {
    const lenient = build(source, out, '--max-drop', '20');
    expect(lenient.status).toBe(1);
    expect(lenient.stderr).toContain(`municipalities fell from ${before} to ${after} (${percent}%, limit 20%)`);

    const forced = build(source, out, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(`published despite the guard (--force): municipalities fell from ${before} to ${after}`);
    expect(forced.stdout).toContain(`changes since ${VERSION}: offices +0 -0`);
    const report = reportOf(out);
    expect(report.municipalities).toBe(after);
    expect(report.diff.summary.municipalities_removed).toBe(before - after);
    expect(report.diff.municipalities.removed).toHaveLength(before - after);
  }, 3 * 60_000);
});

describe('the build guard on the cross-check', () => {
  let out: string;
  let source: string;
  let moved: string[];

  beforeAll(() => {
    out = publishedVersion('agreement');
    // Two municipalities that have their office from the GV100AD itself, sent to the office of others: the 2021
    // postal-code file still names their own, so the same month is then a version whose assignment got worse. Their
    // office keeps the rest of its district, so the agreement is the only count that falls.
    const { municipalities } = Directory.parse(JSON.parse(readFileSync(join(out, VERSION, 'directory.json'), 'utf8')));
    const own = municipalities.filter((m) => m.herkunft.length === 1 && m.herkunft[0]!.zuordnung === 'verzeichnis');
    const officeOf = own.map((m) => m.bufa_nr[0]!);
    const served = (nr: string) => officeOf.filter((o) => o === nr).length;
    const [from, to] = [...new Set(officeOf)].sort((a, b) => served(b) - served(a)) as [string, string];
    moved = own.filter((m) => m.bufa_nr[0] === from).slice(0, 2).map((m) => m.ags);
    source = editedBundle(join(scratch, 'reassigned'), { gv100ad: assignOffices(Object.fromEntries(moved.map((ags) => [ags, to]))) }, saarland);
  });

  it('refuses a version whose agreement fell by more than one point, and publishes it with --force', () => {
    const before = reportOf(out).cross_check.agreement_percent;
    const refused = build(source, out);
    expect(refused.status).toBe(1);
    expect(readdirSync(out).sort()).toEqual([VERSION, 'current']);
    expect(reportOf(out).cross_check.agreement_percent).toBe(before);

    const forced = build(source, out, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    const { cross_check: check } = reportOf(out);
    expect(check.classes.flatMap((c: { municipalities: { ags: string }[] }) => c.municipalities.map((m) => m.ags)).sort()).toEqual(moved.sort());
    const after = check.agreement_percent;
    const fall = `cross-check agreement fell from ${before}% to ${after}% (${(after - before).toFixed(2)} percentage points, limit 1)`;
    expect(refused.stderr).toContain(`refusing to publish: ${fall}; use --force to publish anyway`);
    expect(forced.stderr).toContain(`published despite the guard (--force): ${fall}\n`);
  }, 3 * 60_000); // two builds
});
