// Deploys of real built trees to a real S3-protocol server (s3rver on loopback): every file arrives with
// its bytes and headers, a deploy killed midway resumes without re-uploading what arrived, and `current` is
// written only after every file of its version. The versions are built from the frozen test bundle cut down to
// Saarland's municipalities and offices, so that a deploy takes seconds here; the full version's deploy is
// measured by `npm run bench`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../support/localS3.ts';
import { IMMUTABLE, pointerHeaders, REVALIDATE, versionFileHeaders } from '../../build/deploy/headers.ts';
import { resolveTarget } from '../../build/deploy/target.ts';
import { versionFiles } from '../../build/deploy/versionFiles.ts';
import { municipalityRecords, SAARLAND, saarlandBundle } from '../support/bundles.ts';
import { cleanEnv, runCli, startCli } from './support/cli.ts';

const PREFIX = 'api';
const POINTER = `${PREFIX}/current`;
const FIRST = '20251031_0000';
const SECOND = '20251231_0000';

describe('deploy settings', () => {
  it('takes the target from the environment, with path-style addressing for endpoints other than AWS', () => {
    expect(resolveTarget({}, {})).toBeNull();
    expect(resolveTarget({ prefix: '/api/v1/' }, { FINANZAMT_BUCKET: 'b', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_REGION: 'eu-central-1' }))
      .toEqual({ endpoint: 'http://127.0.0.1:9000', bucket: 'b', prefix: 'api/v1', region: 'eu-central-1', forcePathStyle: true });
    expect(resolveTarget({ bucket: 'b', endpoint: 'https://s3.eu-central-1.amazonaws.com' }, { AWS_ENDPOINT_URL_S3: 'http://other' })?.forcePathStyle).toBe(false);
    expect(resolveTarget({ bucket: 'b' }, { AWS_ENDPOINT_URL_S3: 'http://minio:9000', AWS_ENDPOINT_URL: 'http://other' })?.endpoint).toBe('http://minio:9000');
  });

  it('stores bodies with their encoding and every file of a version as immutable', () => {
    expect(versionFileHeaders('objects/ab/abc.json.br', 'x')).toEqual({ contentType: 'application/json; charset=utf-8', contentEncoding: 'br', cacheControl: IMMUTABLE, sha256: 'x' });
    expect(versionFileHeaders('objects/ab/abc.json.gz', 'x').contentEncoding).toBe('gzip');
    expect(versionFileHeaders('manifest.json', 'x')).toMatchObject({ contentType: 'application/json; charset=utf-8', contentEncoding: undefined, cacheControl: IMMUTABLE });
    expect(versionFileHeaders('search.bin', 'x')).toMatchObject({ contentType: 'application/octet-stream', contentEncoding: undefined, cacheControl: IMMUTABLE });
    expect(pointerHeaders('x')).toMatchObject({ contentType: 'text/plain; charset=utf-8', cacheControl: REVALIDATE });
  });

  it('keeps the AWS SDK from warning about the Node version, by its documented switch', () => {
    // The SDK warns once per process, when a client is made on a Node older than 22 (as Node 20 is): here it is
    // told this is Node 20 after the deploy's store was made, and before, without it.
    const warningsOnNode20 = (makeStore: boolean) => {
      const script = `
        const warnings = [];
        process.on('warning', (w) => warnings.push(w.message));
        const { emitWarningIfUnsupportedVersion } = await import('@aws-sdk/core');
        ${makeStore ? "(await import('./build/deploy/objectStore.ts')).s3Store({ bucket: 'b', prefix: '', region: 'us-east-1', forcePathStyle: true });" : ''}
        emitWarningIfUnsupportedVersion('v20.20.2');
        setImmediate(() => console.log(JSON.stringify(warnings)));`;
      const env = cleanEnv({});
      delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env });
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as string[];
    };
    expect(warningsOnNode20(false)).toEqual([expect.stringContaining('will require node >=22')]);
    expect(warningsOnNode20(true)).toEqual([]);
  });
});

describe('deploy to an S3-compatible server', () => {
  let s3: LocalS3;
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-deploy-'));
  const deployArgs = (dist: string, ...extra: string[]) => ['deploy', '--dist', dist, '--bucket', s3.bucket, '--prefix', PREFIX, ...extra];

  const firstDist = join(scratch, 'first');
  const dist = join(scratch, 'dist');
  beforeAll(async () => {
    s3 = await startLocalS3();
    const source = saarlandBundle(join(scratch, 'saarland'), FIRST, { ownOffices: true });
    const build = await runCli(['build', '--source', source, '--out', firstDist]);
    expect(build.status, build.stderr).toBe(0);
  }, 5 * 60_000);
  afterAll(async () => {
    await s3?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A key as s3rver stores it: the body, and a JSON file of the headers it was stored with. */
  const stored = (key: string) => join(s3.root, s3.bucket, key);
  const storedHeaders = (key: string): Record<string, string> => JSON.parse(readFileSync(`${stored(key)}._S3rver_metadata.json`, 'utf8'));

  async function expectComplete(dist: string, version: string): Promise<string[]> {
    const paths = (await versionFiles(join(dist, version))).flat();
    for (const path of paths) {
      const key = `${PREFIX}/${version}/${path}`;
      const local = readFileSync(join(dist, version, path));
      const remote = readFileSync(`${stored(key)}._S3rver_object`);
      if (!remote.equals(local)) expect.fail(`${key} differs from ${path}`);
      const { contentType, contentEncoding, cacheControl, sha256 } = versionFileHeaders(path, createHash('sha256').update(local).digest('hex'));
      expect(storedHeaders(key)).toEqual({
        'content-type': contentType,
        ...(contentEncoding ? { 'content-encoding': contentEncoding } : {}),
        'cache-control': cacheControl,
        'x-amz-meta-sha256': sha256,
      });
    }
    return paths.map((path) => `${PREFIX}/${version}/${path}`);
  }

  /** Every key of the version was stored before the first write of the pointer after `from`. */
  function expectPointerLast(keys: string[], from: number): void {
    const pointerAt = s3.created.indexOf(POINTER, from);
    expect(pointerAt).toBeGreaterThan(-1);
    const before = new Set(s3.created.slice(0, pointerAt));
    expect(keys.filter((k) => !before.has(k))).toEqual([]);
    const manifestAt = s3.created.lastIndexOf(keys.find((k) => k.endsWith('/manifest.json'))!, pointerAt);
    const objectsBefore = new Set(s3.created.slice(0, manifestAt));
    expect(keys.filter((k) => k.includes('/objects/') && !objectsBefore.has(k))).toEqual([]);
  }

  it('resumes a deploy killed midway, skipping what arrived, and writes current only once the version is complete', async () => {
    const version = readlinkSync(join(firstDist, 'current'));
    expect(version).toBe(FIRST);
    const total = (await versionFiles(join(firstDist, version))).flat().length;
    const first = startCli(deployArgs(firstDist), s3.env);
    await until(() => s3.created.length >= total / 2, first.done);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const arrived = s3.created.length;
    expect(s3.created).not.toContain(POINTER);
    expect((await get(`${s3.endpoint}/${s3.bucket}/${POINTER}`)).status).toBe(404);

    const second = await runCli(deployArgs(firstDist), s3.env);
    expect(second.status, second.stderr).toBe(0);
    const [, uploaded, skipped] = /uploaded (\d+) files .*, skipped (\d+) files/.exec(second.stdout)!.map(Number);
    expect(skipped).toBeGreaterThanOrEqual(arrived);
    expect(second.stdout).toContain(`current switched from (none) to ${version}`);
    // Its output is a pipe, not a terminal: progress comes as lines on stderr, the last one at the total.
    expect(second.stderr).toMatch(new RegExp(`^uploading files: \\d+ of ${total} \\(\\d+%\\), \\d+ s$`, 'm'));
    expect(second.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^uploading files: ${total} of ${total} \\(100%\\), \\d+ s$`));

    const keys = await expectComplete(firstDist, version);
    expect(uploaded! + skipped!).toBe(keys.length);
    await until(() => s3.created.includes(POINTER));
    expectPointerLast(keys, 0);

    const pointer = await get(`${s3.endpoint}/${s3.bucket}/${POINTER}`);
    expect(pointer.body.toString('utf8')).toBe(version);
    expect(pointer.headers).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
    // A reader over plain HTTP (the proxy's --origin mode) gets each file as it is on disk, with its headers.
    for (const key of [...keys.filter((k) => !k.includes('/objects/')), ...keys.filter((_, i) => i % 50 === 0)]) {
      const response = await get(`${s3.endpoint}/${s3.bucket}/${key}`);
      expect(response.body.equals(readFileSync(join(firstDist, version, key.slice(`${PREFIX}/${version}/`.length))))).toBe(true);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
      expect(response.headers['x-amz-meta-sha256']).toBe(createHash('sha256').update(response.body).digest('hex'));
    }
  }, 5 * 60_000);

  it('refuses a second version whose counts fell, and with --force switches current to it only at the end', async () => {
    // Saarland without the Kreis St. Wendel: a sharp drop in municipalities.
    const source = saarlandBundle(join(scratch, 'saarland-part'), SECOND, { keep: (line) => SAARLAND(line) && line.slice(10, 15) !== '10046', ownOffices: true });
    const build = await runCli(['build', '--source', source, '--out', dist]);
    expect(build.status, build.stderr).toBe(0);

    const before = s3.created.length;
    const refused = await runCli(deployArgs(dist), s3.env);
    expect(refused.status).toBe(1);
    const [published, next] = [municipalityRecords(join(scratch, 'saarland')).length, municipalityRecords(source).length] as const;
    expect(refused.stderr).toContain(`refusing to publish: municipalities fell from ${published} to ${next} (${(((next - published) / published) * 100).toFixed(1)}%, limit 5%)`);
    expect(s3.created.length).toBe(before);

    const forced = await runCli(deployArgs(dist, '--force'), s3.env);
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`current switched from ${FIRST} to ${SECOND}`);
    const keys = await expectComplete(dist, SECOND);
    await until(() => s3.created.lastIndexOf(POINTER) > before);
    expectPointerLast(keys, before);
    expect(s3.created.slice(before).filter((k) => k === POINTER)).toHaveLength(1);
    expect((await get(`${s3.endpoint}/${s3.bucket}/${POINTER}`)).body.toString('utf8')).toBe(SECOND);
  }, 5 * 60_000);

  it('refuses another build of a version the bucket holds, and writes nothing', async () => {
    // The deployed second version's date, from other data: Saarland without one municipality of St. Wendel only.
    const source = saarlandBundle(join(scratch, 'saarland-other'), SECOND, { keep: (line) => SAARLAND(line) && line.slice(10, 18) !== '10046111', ownOffices: true });
    const otherDist = join(scratch, 'other');
    const build = await runCli(['build', '--source', source, '--out', otherDist]);
    expect(build.status, build.stderr).toBe(0);
    const before = s3.created.length;
    const refused = await runCli(deployArgs(otherDist, '--force'), s3.env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`s3://finanzamt/api/${SECOND} holds another build of ${SECOND}`);
    expect(refused.stderr).toContain('a version once deployed keeps its answers');
    expect(s3.created.length).toBe(before);
  }, 5 * 60_000);

  it('plans without writing on --dry-run: a deployed version is skipped whole', async () => {
    const before = s3.created.length;
    const dry = await runCli(deployArgs(dist, '--dry-run'), s3.env);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^dry run for s3:\/\/finanzamt\/api\/20251231_0000: would upload 0 files \(0\.0 MB\), skip \d+ files .* already there; current already names 20251231_0000/);
    const redo = await runCli(deployArgs(firstDist, '--dry-run'), s3.env);
    expect(redo.status, redo.stderr).toBe(0);
    expect(redo.stdout).toMatch(new RegExp(`would upload 0 files \\(0\\.0 MB\\), skip \\d+ files .*; current would switch from ${SECOND} to ${FIRST}`));
    expect(s3.created.length).toBe(before);
  }, 5 * 60_000);
});

async function until(condition: () => boolean, abandon?: Promise<unknown>): Promise<void> {
  let ended = false;
  void abandon?.then(() => { ended = true; });
  while (!condition()) {
    if (ended) throw new Error('the process ended before the condition held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A plain GET without decoding (fetch would decompress the stored gzip and br bodies). */
function get(url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}
