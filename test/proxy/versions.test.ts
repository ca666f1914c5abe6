// The served version follows `dist/current` while the proxy runs: 503 while nothing is published, an atomic
// switch to a new version or rebuild, damaged files refused, a broken version not taken (a cut place index or
// none included: logged, counted and named in /healthz), and a `current` that is gone never unloading the version
// served. A place index that hangs is test/reliability/hungLoad.test.ts; `current` missing for moments under
// requests, test/proxy/currentGaps.test.ts.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../core/model.ts';
import { objectPath } from '../../core/manifest.ts';
import { HealthResponse, NotLoaded } from '../../core/health.ts';
import { SEARCH_FILE } from '../../core/search/placeIndex.ts';
import { eventually, type RawResponse } from '../support/http.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testTree } from '../support/tree.ts';
import { publish, unpublish, writeVersion } from '../support/versions.ts';

const tree = testTree('saarland');
const PATH = '/finanzamt/2115';
const ORT = '/finanzamt?ort=Saarlouis';
const DISTRICT = '/finanzamt/2115/bezirk';
let dist: string;
let proxy: ProxyProcess;
let key: string;
let buildOfA: string;

const original = tree.file(PATH);
const changedBody = (tag: string) => {
  const body = JSON.parse(original.toString('utf8'));
  body.amt.name = `${body.amt.name} (${tag})`;
  return JSON.stringify(body);
};

beforeAll(async () => {
  const dir = scratchDir();
  dist = join(dir, 'dist');
  mkdirSync(dist);
  const keysFile = join(dir, 'keys.json');
  key = await issueKey(keysFile, 'versions');
  buildOfA = writeVersion(dist, 'a', { from: 'saarland' }).build_id;
  proxy = await startProxy({ keysFile, args: ['--dist', dist, ...UNLIMITED, '--metrics-port', '0'], healthy: false });
});

afterAll(async () => {
  await proxy?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => proxy.get(path, { 'x-api-key': key, ...headers });
const buildId = async () => {
  const res = await proxy.get('/healthz');
  return res.status === 200 ? (res.parsed(HealthResponse).build_id) : null;
};
const health = async () => (await proxy.get('/healthz')).parsed(HealthResponse);
const metric = async (name: string) => total((await scrape(metricsUrl(proxy))).samples, name);

/**
 * Refuses `name` once published: the version served before keeps answering (`ort` too), and the refusal is
 * logged, counted and named in /healthz with `reason`.
 */
async function expectRefused(name: string, reason: string): Promise<void> {
  const before = await buildId();
  const failures = await metric('finanzamt_version_load_failures_total');
  publish(dist, name);
  await eventually(`the refusal of ${name} to be logged`, async () => proxy.logLines().some((l) => String(l.msg).includes(`cannot load version ${name}`) && String(l.msg).includes(reason)), 20_000);
  expect(await buildId()).toBe(before);
  expect((await get(PATH)).status).toBe(200);
  expect((await get(ORT)).status).toBe(200);
  const h = await health();
  expect(h.status).toBe('ok');
  expect(h.nicht_geladen?.version).toBe(name);
  expect(h.nicht_geladen?.grund).toContain(reason);
  expect(await metric('finanzamt_version_load_failures_total')).toBeGreaterThan(failures);
  expect(await metric('finanzamt_version_not_loaded')).toBe(1);
}

describe('following dist/current', () => {
  it('answers 503 while no version is published, and serves one as soon as it is', async () => {
    const unloaded = await proxy.get('/healthz');
    expect(unloaded.status).toBe(503);
    expect(unloaded.parsed(ErrorResponse.extend({ nicht_geladen: NotLoaded }))).toEqual({
      detail: expect.any(String), code: 'unavailable', nicht_geladen: { grund: expect.stringContaining(`${join(dist, 'current')} does not exist`) },
    });
    const res = await get(PATH);
    expect(res.status).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.any(String), code: 'unavailable' });
    expect((await proxy.get(PATH)).status).toBe(401);

    publish(dist, 'a');
    await eventually('version a to be served', async () => (await get(PATH)).status === 200, 20_000);
    expect((await get(PATH)).body.equals(original)).toBe(true);
  });

  it('switches to a new version without restart, and no response mixes the two', async () => {
    const b = writeVersion(dist, 'b', { from: 'saarland', bodies: { [PATH]: changedBody('B') } });
    const etagA = tree.manifest.entries[PATH]!.etag;
    const etagB = b.entries[PATH]!.etag;
    expect(etagB).not.toBe(etagA);

    const seen: RawResponse[] = [];
    // Each loop asks until it is answered from b itself (or gives up with the probe below).
    const deadline = performance.now() + 20_000;
    const load = async () => {
      for (;;) {
        const res = await get(PATH);
        seen.push(res);
        if (res.text.includes('(B)') || performance.now() > deadline) return;
      }
    };
    // Answered from a before b is published: the switch can be quicker than the loops' first requests.
    seen.push(...await Promise.all([get(PATH), get(PATH), get(PATH)]));
    const loops = [load(), load(), load()];
    publish(dist, 'b');
    // Within the watcher's reach (it also polls): how fast is for the benchmarks, on a quiet machine.
    await eventually('version b to be served', async () => (await get(PATH)).text.includes('(B)'), 20_000);
    await Promise.all(loops);

    // a answered the first three; b was answered too, so the check below covers each version.
    expect(seen.some((res) => res.text.includes('(B)'))).toBe(true);
    for (const res of seen) {
      expect(res.status).toBe(200);
      const isB = res.text.includes('(B)');
      expect(res.headers.etag).toBe(isB ? etagB : etagA);
      expect(res.body.equals(isB ? Buffer.from(changedBody('B')) : original)).toBe(true);
    }
    expect(await buildId()).toBe(b.build_id);
    // Everything else comes from the shared bodies.
    expect((await get(DISTRICT)).body.equals(tree.file(DISTRICT))).toBe(true);
  });

  it('picks up a rebuild published under the same name', async () => {
    const rebuilt = writeVersion(dist, 'b-next', { from: 'saarland', buildId: 'rebuilt-b', bodies: { [PATH]: changedBody('B2') } });
    renameSync(join(dist, 'b'), join(dist, '.retired-b'));
    renameSync(join(dist, 'b-next'), join(dist, 'b'));
    await eventually('the rebuild to be served', async () => (await get(PATH)).text.includes('(B2)'), 20_000);
    expect(await buildId()).toBe(rebuilt.build_id);
  });

  it('keeps serving the current version when the published one cannot be loaded', async () => {
    writeVersion(dist, 'broken', { from: 'saarland' });
    writeFileSync(join(dist, 'broken', 'manifest.json'), '{"format":1,');
    const before = await buildId();
    publish(dist, 'broken');
    await eventually('the failure to be logged', async () => proxy.logLines().some((l) => String(l.msg).includes('cannot load version broken')), 20_000);
    expect(await buildId()).toBe(before);
    expect((await get(PATH)).status).toBe(200);
    expect((await health()).nicht_geladen?.version).toBe('broken');
  });

  it('refuses to serve a stored file that is corrupt or truncated (503), and serves the rest', async () => {
    // Bodies not asked for before: one already in memory was checked when it was read and stays servable.
    const DAMAGED = `/finanzamt/${tree.directory.offices[3]!.bufa_nr}/bezirk`;
    const TRUNCATED = `/finanzamt/${tree.directory.offices[4]!.bufa_nr}/bezirk`;
    const damaged = Buffer.from(tree.file(DAMAGED));
    damaged.writeUInt8(damaged[damaged.length - 10]! ^ 1, damaged.length - 10);
    const truncated = tree.file(TRUNCATED, 'gzip').subarray(0, 20);
    const c = writeVersion(dist, 'c', { from: 'saarland', damaged: {
      [objectPath(tree.manifest.entries[DAMAGED]!.object, 'identity')]: damaged,
      [objectPath(tree.manifest.entries[TRUNCATED]!.object, 'gzip')]: truncated,
    } });
    publish(dist, 'c');
    await eventually('version c to be served', async () => (await buildId()) === c.build_id, 20_000);
    for (const [path, encoding] of [[DAMAGED, 'identity'], [TRUNCATED, 'gzip']] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await get(path, { 'accept-encoding': encoding });
        expect(res.status, `${path} ${encoding}`).toBe(503);
        expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.any(String), code: 'unavailable', stand: c.stand });
      }
      expect((await get(path, { 'accept-encoding': 'br' })).status).toBe(200);
    }
    expect((await get(PATH)).body.equals(original)).toBe(true);
    await eventually('the refusal to be logged', async () => proxy.logLines().some((l) => l.msg === 'stored answer unreadable' && l.question === DAMAGED));
  });

  it('refuses a version whose place index is cut short, and keeps serving the one before with its place search', async () => {
    const listed = tree.manifest.files[SEARCH_FILE]!.bytes;
    writeVersion(dist, 'cut', { from: 'saarland', damaged: { [SEARCH_FILE]: readFileSync(join(tree.root, SEARCH_FILE)).subarray(0, 1000) } });
    await expectRefused('cut', `${SEARCH_FILE}: 1000 bytes, the manifest says ${listed}`);
  });

  it('refuses a version whose manifest names no place index', async () => {
    writeVersion(dist, 'no-search', { from: 'saarland', withoutSearch: true });
    await expectRefused('no-search', `${SEARCH_FILE}: not listed in the manifest`);
  });

  it('keeps the loaded version while current is gone, says so, and takes the version named when it is back', async () => {
    const served = await buildId();
    unpublish(dist);
    await eventually('/healthz to say current is missing', async () => (await health()).nicht_geladen?.grund.includes(`${join(dist, 'current')} does not exist`) === true, 20_000);
    expect(await buildId()).toBe(served);
    expect((await get(PATH)).status).toBe(200);
    expect(await metric('finanzamt_version_not_loaded')).toBe(1);
    await eventually('the log to say so', async () => proxy.logLines().some((l) => String(l.msg).endsWith(`does not exist; --dist names the folder that finanzamt build --out writes, which holds current, the link to the version served. Build one with: finanzamt build --out ${dist}; still serving c`)));
    publish(dist, 'a');
    await eventually('version a', async () => (await buildId()) === buildOfA, 20_000);
    expect((await health()).nicht_geladen).toBeUndefined();
    expect((await get(PATH)).body.equals(original)).toBe(true);
    expect(proxy.child.exitCode).toBeNull();
  });
});
