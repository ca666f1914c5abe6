// The release: `npm run release -- --dry-run` with the shipped configuration; its guard, diff and deploy steps
// against a real S3-compatible server that serves a version; fetchSources against a local HTTP server standing in
// for the publishers; and the release's steps end to end (fetch from that server, build, check, guard, diff), which
// pass a changed month and refuse a broken one. The versions are built from Saarland's municipalities of the frozen
// test bundle: the steps and their guard work on a small real bundle as on the whole country's, in seconds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../support/localS3.ts';
import { pointerHeaders, versionFileHeaders } from '../../build/deploy/headers.ts';
import { s3Store } from '../../build/deploy/objectStore.ts';
import { resolveTarget } from '../../build/deploy/target.ts';
import { versionFiles } from '../../build/deploy/versionFiles.ts';
import { fetchSources, type SourceConfig } from '../../build/release/fetchSources.ts';
import { BundleManifest, readBundle } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { versionTree } from '../support/tree.ts';
import { editedBundle, editRecords, isMunicipality, keepMunicipalities, municipalityRecords, OFFICE, redate, saarlandBundle, withField, type Edits } from '../support/bundles.ts';
import { cleanEnv, runCli } from './support/cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-release-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The month the releases below start from: Saarland's municipalities and offices, published in `published`, built
 * from `saarland`, which has `municipalities` of them.
 */
const PUBLISHED = '20251130_0000';
let saarland: string;
let published: string;
let municipalities: number;
beforeAll(async () => {
  saarland = saarlandBundle(join(scratch, 'saarland'), PUBLISHED, { ownOffices: true });
  municipalities = municipalityRecords(saarland).length;
  published = join(scratch, 'published');
  const built = await runCli(['build', '--source', saarland, '--out', published]);
  expect(built.status, built.stderr).toBe(0);
}, 3 * 60_000);

/** A local HTTP server standing in for the publishers: serves what a test puts into `served`, by path. */
let publisher: Server;
let base: string;
const served = new Map<string, { body: Buffer; lastModified?: string }>();

/** Bodies that never end: as fast as the connection takes them, or a byte every 50 ms. */
const ENDLESS = '/endless';
const TRICKLE = '/trickle';

beforeAll(async () => {
  publisher = createServer((req, res) => {
    if (req.url === ENDLESS || req.url === TRICKLE) return void sendForever(res, req.url === TRICKLE);
    const file = served.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': file.body.length, ...(file.lastModified ? { 'last-modified': file.lastModified } : {}) }).end(file.body);
  });
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => {
  publisher.closeAllConnections();
  publisher.close(resolve);
}));

function sendForever(res: ServerResponse, slowly: boolean): void {
  const chunk = Buffer.alloc(slowly ? 1 : 64 * 1024, 'x');
  res.writeHead(200, { 'content-type': 'application/json' });
  const more = () => {
    if (res.destroyed) return;
    if (slowly) setTimeout(() => res.write(chunk, more), 50);
    else if (res.write(chunk)) setImmediate(more);
    else res.once('drain', more);
  };
  more();
}

describe('npm run release -- --dry-run', () => {
  it('runs every step that needs no network and exits 0', () => {
    // The shipped list of sources (fetch names its addresses), on a bundle of the frozen month: not data/, whose
    // month changes with every release.
    const source = editedBundle(join(scratch, 'dry-run'), {}, saarland);
    const result = spawnSync('npm', ['run', '--silent', 'release', '--', '--dry-run', '--source', source], { encoding: 'utf8', env: cleanEnv({}) });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(['fetch', 'build', 'check', 'guard', 'diff', 'deploy']);
    expect(lines[0]).toMatch(/^fetch: skipped \(dry run\); would fetch https:\/\/www\.destatis\.de\/\S+(, https:\/\/\S+){4}$/);
    expect(lines[1]).toMatch(/^build: \d{8}_\d{4} published in \S+ \(\d+ files, \d+\.\d MB\)$/);
    expect(lines[2]).toMatch(/^check: passed for \d{8}_\d{4}: \d+ municipalities, \d+ without an office \(uninhabited: \d+\); \d+ offices, every number named is known; no published counts to compare with$/);
    expect(lines[5]).toMatch(/^deploy: skipped: no target configured/);
  }, 2 * 60_000);
});

describe('release against a bucket that serves a version', () => {
  let s3: LocalS3;
  const tree = () => versionTree(join(published, 'current'));
  const version = () => tree().manifest.stand_quelle;
  const publishedReport = () => JSON.parse(readFileSync(join(tree().root, 'report.json'), 'utf8'));
  const release = (...args: string[]) => runCli(['release', '--bucket', s3.bucket, '--prefix', 'api', '--dist', published, ...args], s3.env);

  /** The bucket serves Saarland's version, as far as the guard and the diff look: pointer, report, directory. */
  async function serve(report: Buffer) {
    const store = s3Store(resolveTarget({ bucket: s3.bucket, prefix: 'api' }, s3.env)!, s3.credentials);
    const put = (path: string, body: Buffer) => store.put(`api/${version()}/${path}`, body, versionFileHeaders(path, sha(body)));
    await put('report.json', report);
    await put('directory.json', readFileSync(join(tree().root, 'directory.json')));
    await store.put('api/current', Buffer.from(version()), pointerHeaders(sha(version())));
  }

  beforeAll(async () => { s3 = await startLocalS3(); });
  afterAll(async () => { await s3?.stop(); });

  it('passes the guard, finds no changes and plans the upload of what the bucket lacks', async () => {
    await serve(readFileSync(join(tree().root, 'report.json')));
    const result = await release('--steps', 'guard,diff,deploy', '--dry-run');
    expect(result.status, result.stderr).toBe(0);
    const total = (await versionFiles(tree().root)).flat().length;
    expect(result.stdout).toContain(`guard: passed against ${version()} at s3://finanzamt/api/${version()}: municipalities ${municipalities} → ${municipalities}`);
    expect(result.stdout).toContain(`diff: ${version()} → ${version()}: offices +0 -0 renamed 0 changed 0`);
    expect(result.stdout).toContain(`deploy: dry run for s3://finanzamt/api/${version()}: would upload ${total - 2} files`);
    expect(result.stdout).toContain('skip 2 files');
  }, 2 * 60_000);

  it('fails at the guard when the published version had many more municipalities', async () => {
    await serve(Buffer.from(JSON.stringify({ ...publishedReport(), municipalities: 20000 })));
    const result = await release('--steps', 'guard,diff,deploy', '--dry-run');
    expect(result.status).toBe(1);
    expect(result.stdout.trim()).toBe('guard: failed');
    const percent = (((municipalities - 20000) / 20000) * 100).toFixed(1);
    expect(result.stderr).toContain(`refusing to publish: municipalities fell from 20000 to ${municipalities} (${percent}%, limit 5%)`);
  }, 2 * 60_000);
});

describe('fetchSources', () => {
  it('downloads, unpacks and transcodes the files, and updates the manifest’s sha256 and date', async () => {
    const bundle = editedBundle(join(scratch, 'bundle'), {});
    const manifest = () => BundleManifest.parse(JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')));
    const path = (kind: string) => join(bundle, manifest().files.find((f) => f.kind === kind)!.path);
    const gv100ad = readFileSync(path('gv100ad'));
    const plz = readFileSync(path('plz-gemeinde'), 'utf8');
    const shippedOffices = { path: path('offices'), body: readFileSync(path('offices')) };
    const offices = shippedOffices.body.toString('utf8').replace('"name": "Saarlouis"', '"name": "Saarlouis-Dillingen"');
    served.set('/gv100ad.zip', { body: Buffer.from(zipSync({ 'GV100AD_30112025.txt': gv100ad, 'Datensatzbeschreibung.pdf': Buffer.from('%PDF') })) });
    served.set('/plz.csv', { body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(plz.replace(/\n/g, '\r\n'), 'utf16le')]) });
    served.set('/offices.json', { body: Buffer.from(offices), lastModified: 'Tue, 02 Dec 2025 08:00:00 GMT' });
    const config: SourceConfig = { files: [
      { kind: 'gv100ad', url: `${base}/gv100ad.zip`, zipMember: '^GV100AD_\\d{8}\\.txt$' },
      { kind: 'plz-gemeinde', url: `${base}/plz.csv`, encoding: 'utf-16' },
      { kind: 'offices', url: `${base}/offices.json` },
    ] };

    const fetched = await fetchSources(bundle, config);
    expect(fetched.map(({ kind, date, changed }) => ({ kind, date, changed }))).toEqual([
      { kind: 'gv100ad', date: '2025-11-30', changed: false },
      { kind: 'plz-gemeinde', date: new Date().toISOString().slice(0, 10), changed: false },
      { kind: 'offices', date: '2025-12-02', changed: true },
    ]);
    expect(readFileSync(path('plz-gemeinde'), 'utf8')).toBe(plz);
    // The new bytes in a folder of their own, named by kind and date; the shipped file as it was.
    expect(manifest().files.find((f) => f.kind === 'offices')).toMatchObject({
      path: 'sources/offices_2025-12-02/offices.json', sha256: sha(offices), source: expect.stringContaining(`${base}/offices.json`),
    });
    expect(readFileSync(shippedOffices.path).equals(shippedOffices.body)).toBe(true);
    const read = await readBundle(bundle);
    expect(read.offices.find((o) => o.bufa_nr === '1010')!.name).toBe('Saarlouis-Dillingen');
  });

  it('keeps the municipality directory that a new one replaces as the previous one, for the check of vanished keys', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-2026'), {}, FROZEN_BUNDLES['2026']);
    const entry = (kind: string) => BundleManifest.parse(JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8'))).files.find((f) => f.kind === kind)!;
    const shippedPath = entry('gv100ad').path;
    const shipped = readFileSync(join(bundle, shippedPath));
    const next = redate('20260831')(shipped.toString('utf8'));
    served.set('/gv100ad-next.zip', { body: Buffer.from(zipSync({ 'GV100AD_31082026.txt': Buffer.from(next) })) });
    const fetched = await fetchSources(bundle, { files: [{ kind: 'gv100ad', url: `${base}/gv100ad-next.zip`, zipMember: '^GV100AD_\\d{8}\\.txt$' }] });
    expect(fetched).toEqual([expect.objectContaining({ kind: 'gv100ad', date: '2026-08-31', changed: true })]);
    expect(entry('gv100ad-previous')).toMatchObject({ date: '2026-05-31', sha256: sha(shipped), path: shippedPath });
    expect(entry('gv100ad')).toMatchObject({ date: '2026-08-31', path: 'sources/gv100ad_2026-08-31/GV100AD_31082026.txt' });
    expect(readFileSync(join(bundle, entry('gv100ad-previous').path)).equals(shipped)).toBe(true);
    const read = await readBundle(bundle);
    expect(read.previousGv100ad!.gemeinden).toHaveLength(read.gv100ad.gemeinden.length);
  });

  it('refuses a municipality directory older than the bundle\'s, and changes nothing', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-older'), {}, FROZEN_BUNDLES['2026']);
    const before = readFileSync(join(bundle, 'manifest.json'));
    const current = BundleManifest.parse(JSON.parse(before.toString('utf8'))).files.find((f) => f.kind === 'gv100ad')!;
    const older = redate('20251231')(readFileSync(join(bundle, current.path), 'utf8'));
    served.set('/gv100ad-older.zip', { body: Buffer.from(zipSync({ 'GV100AD_31122025.txt': Buffer.from(older) })) });
    await expect(fetchSources(bundle, { files: [{ kind: 'gv100ad', url: `${base}/gv100ad-older.zip`, zipMember: '^GV100AD_\\d{8}\\.txt$' }] }))
      .rejects.toThrow(`${base}/gv100ad-older.zip: its data of 2025-12-31 is older than the bundle's gv100ad of 2026-05-31; not taken`);
    expect(readFileSync(join(bundle, 'manifest.json')).equals(before)).toBe(true);
  });

  it('stops an endless download at the largest file of its kind, naming the URL and the limit', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-endless'), {});
    const before = readFileSync(join(bundle, 'manifest.json'));
    await expect(fetchSources(bundle, { files: [{ kind: 'offices', url: `${base}${ENDLESS}` }] }))
      .rejects.toThrow(new RegExp(`^${base}${ENDLESS}: more than \\d+ bytes, more than a file of kind offices may have \\(8 MiB\\); not taken$`));
    // Said by its Content-Length, it is refused before its first byte.
    served.set('/huge.json', { body: Buffer.alloc(5 * 1024 * 1024, ' ') });
    await expect(fetchSources(bundle, { files: [{ kind: 'states', url: `${base}/huge.json` }] }))
      .rejects.toThrow(`${base}/huge.json: 5242880 bytes by its Content-Length, more than a file of kind states may have (4 MiB); not taken`);
    expect(readFileSync(join(bundle, 'manifest.json')).equals(before)).toBe(true);
  });

  it('stops a download that takes longer than its time, naming the URL and the limit', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-trickle'), {});
    const started = Date.now();
    await expect(fetchSources(bundle, { files: [{ kind: 'offices', url: `${base}${TRICKLE}` }] }, { timeout: 1_500 }))
      .rejects.toThrow(new RegExp(`^${base}${TRICKLE}: not complete within 1.5 s, the time one download may take \\(\\d+ bytes arrived\\); not taken$`));
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops an archive whose member inflates past the largest file of its kind, naming the URL, the member and the limit', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-bomb'), {});
    // 40 MiB of one letter in a ZIP of 40 kB: past the 32 MiB a GV100AD may have.
    const bomb = Buffer.from(zipSync({ 'GV100AD_30112025.txt': new Uint8Array(40 * 1024 * 1024).fill(0x20) }, { level: 9 }));
    expect(bomb.length).toBeLessThan(100_000);
    served.set('/bomb.zip', { body: bomb });
    await expect(fetchSources(bundle, { files: [{ kind: 'gv100ad', url: `${base}/bomb.zip`, zipMember: '^GV100AD_\\d{8}\\.txt$' }] }))
      .rejects.toThrow(`${base}/bomb.zip: the archive's member GV100AD_30112025.txt inflates to more than a file of kind gv100ad may have (32 MiB); not taken`);
  });

  it('dates a file by the day of the fetch, with a warning, when its Last-Modified is no HTTP date or after the fetch', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-dates'), {});
    const offices = readFileSync(join(bundle, BundleManifest.parse(JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8'))).files.find((f) => f.kind === 'offices')!.path));
    const today = new Date('2025-12-05T10:00:00Z');
    const fetchDated = async (lastModified: string) => {
      served.set('/dated.json', { body: offices, lastModified });
      // The same bytes as the bundle's: the fetch changes nothing, whatever date it finds.
      return (await fetchSources(bundle, { files: [{ kind: 'offices', url: `${base}/dated.json` }] }, { today }))[0]!;
    };
    expect(await fetchDated('gestern')).toMatchObject({ date: '2025-12-05', warnings: [`${base}/dated.json: its Last-Modified "gestern" is no HTTP date; dated by the day of the fetch instead`] });
    expect(await fetchDated('2025-12-02')).toMatchObject({ date: '2025-12-05', warnings: [expect.stringContaining('"2025-12-02" is no HTTP date')] });
    expect(await fetchDated('Sat, 31 Jan 2026 08:00:00 GMT')).toMatchObject({ date: '2025-12-05', warnings: [expect.stringContaining('is after the fetch')] });
    expect(await fetchDated('Tue, 02 Dec 2025 08:00:00 GMT')).toMatchObject({ date: '2025-12-02', warnings: [] });
    expect(await fetchDated('Tuesday, 02-Dec-25 08:00:00 GMT')).toMatchObject({ date: '2025-12-02', warnings: [] });
    expect(await fetchDated('Tue Dec  2 08:00:00 2025')).toMatchObject({ date: '2025-12-02', warnings: [] });
  });

  it('stops on a download that fails, naming the URL', async () => {
    const bundle = editedBundle(join(scratch, 'bundle-404'), {});
    const before = readFileSync(join(bundle, 'manifest.json'));
    await expect(fetchSources(bundle, { files: [{ kind: 'offices', url: `${base}/missing.json` }] })).rejects.toThrow(`${base}/missing.json: HTTP 404`);
    expect(readFileSync(join(bundle, 'manifest.json')).equals(before)).toBe(true);
  });
});

function sha(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}

describe('the release end to end: fetch, build, check, guard, diff, deploy', () => {
  const NEXT = '20251231_0000';
  const STEPS = 'fetch,build,check,guard,diff,deploy';
  const FETCHED = ['gv100ad', 'plz-gemeinde', 'offices'] as const;

  /**
   * A dist directory that publishes Saarland's November, and its source bundle (copies of the ones built above, for
   * the release to change); the publisher serves `edits` of it dated December. Returns the release's run over them.
   */
  async function release(name: string, edits: Edits, ...flags: string[]) {
    const dir = join(scratch, name);
    const source = editedBundle(join(dir, 'source'), {}, saarland);
    const dist = join(dir, 'dist');
    cpSync(published, dist, { recursive: true, verbatimSymlinks: true });
    const month = editedBundle(join(dir, 'month'), { ...edits, gv100ad: (text) => redate(NEXT.slice(0, 8))(edits.gv100ad?.(text) ?? text) }, source);
    const manifest = BundleManifest.parse(JSON.parse(readFileSync(join(month, 'manifest.json'), 'utf8')));
    const files = FETCHED.map((kind) => {
      served.set(`/${name}/${kind}`, { body: readFileSync(join(month, manifest.files.find((f) => f.kind === kind)!.path)) });
      return { kind, url: `${base}/${name}/${kind}` };
    });
    const sources = join(dir, 'sources.json');
    writeFileSync(sources, JSON.stringify({ files }));
    return runCli(['release', '--source', source, '--sources', sources, '--dist', dist, '--steps', STEPS, ...flags]);
  }

  it('passes a changed month through every step: new version, checks and guard passed, the change in the diff', async () => {
    const result = await release('changed', { offices: (text) => text.replace('"name": "Saarlouis"', '"name": "Saarlouis-Dillingen"') });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(STEPS.split(','));
    expect(lines[0]).toBe(`fetch: 3 files fetched, 2 changed (gv100ad 2025-12-31, plz-gemeinde ${new Date().toISOString().slice(0, 10)}, offices ${new Date().toISOString().slice(0, 10)})`);
    expect(lines[1]).toMatch(new RegExp(`^build: ${NEXT} published in `));
    expect(lines[2]).toMatch(new RegExp(`^check: passed for ${NEXT}: ${municipalities} municipalities, (\\d+) without an office \\(uninhabited: \\1\\); \\d+ offices, every number named is known; counts within ±5% of the published version$`));
    expect(lines[3]).toMatch(new RegExp(`^guard: passed against ${PUBLISHED} at \\S+: municipalities ${municipalities} → ${municipalities}, `));
    // Every count as a value, the cross-check's agreement as a percentage.
    expect(lines[3]).toMatch(/, offices_with_district \d+ → \d+, cross_check \d+(\.\d+)?% → \d+(\.\d+)?%$/);
    expect(lines[3]).not.toContain('[object Object]');
    // The build's progress, as lines where no terminal shows a bar.
    expect(result.stderr).toMatch(/^build: precomputing answers: (\d+) of \1 \(100%\), \d+ s$/m);
    expect(lines[4]).toBe(`diff: ${PUBLISHED} → ${NEXT}: offices +0 -0 renamed 1 changed 0; municipalities +0 -0 reassigned 0; postal codes +0 -0 changed 0`);
    expect(lines[5]).toMatch(/^deploy: skipped: no target configured/);
  }, 3 * 60_000);

  it('refuses a month in which inhabited municipalities lost their office: at the build\'s cross-check, and at the data checks even with --force', async () => {
    const blank = () => {
      let blanked = 0;
      return { gv100ad: editRecords((line) => (isMunicipality(line) && blanked++ < 3 ? withField(line, ...OFFICE, '') : line)) };
    };
    const guarded = await release('no-office', blank());
    expect(guarded.status).toBe(1);
    expect(guarded.stdout.trim().split('\n').at(-1)).toBe('build: failed');
    expect(guarded.stderr).toMatch(/refusing to publish: cross-check agreement fell from 100% to \d+(\.\d+)?%/);

    const forced = await release('no-office-forced', blank(), '--force');
    expect(forced.status).toBe(1);
    expect(forced.stdout.trim().split('\n').at(-1)).toBe('check: failed');
    expect(forced.stderr).toMatch(new RegExp(`the data checks failed for ${NEXT}: inhabited municipality 10\\d{6} \\(.+\\) has no office`));
  }, 3 * 60_000);

  it('refuses a truncated month, at the build\'s publish guard', async () => {
    const kept = Math.floor((municipalities * 3) / 4);
    const result = await release('truncated', { gv100ad: keepMunicipalities((_line, index) => index < kept) });
    expect(result.status).toBe(1);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('build: failed');
    expect(result.stderr).toContain(`refusing to publish: municipalities fell from ${municipalities} to ${kept}`);
  }, 3 * 60_000);
});
