// `serve --origin`: the same tree served from an HTTP origin (here a plain static file server over a copy of
// the layout): same bytes, version switch by the pointer object and by the build id (not the ETag), damaged and
// slow bodies refused with 503, and a pointer gone for a while keeping the version served.
import { realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse, LookupResponse } from '../../core/model.ts';
import { MANIFEST_HEAD_BYTES, objectPath } from '../../core/manifest.ts';
import { HealthResponse } from '../../core/health.ts';
import { eventually } from '../support/http.ts';
import { startOrigin, testTreeOrigin, type Origin } from '../support/origin.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';
import { writeVersion } from '../support/versions.ts';

const tree = testTree('saarland');
const PATH = '/finanzamt/2115';
let root: string;
let origin: Origin;
let point: (name: string) => void;
let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  const dir = scratchDir();
  ({ origin, root, point } = await testTreeOrigin(dir, realpathSync(join(testDist('saarland'), 'current')), tree.manifest.stand_quelle));
  const keysFile = join(dir, 'keys.json');
  key = await issueKey(keysFile, 'origin');
  proxy = await startProxy({ keysFile, args: ['--origin', `${origin.url}/`, '--read-timeout', '800', ...UNLIMITED] });
});

afterAll(async () => {
  await proxy?.stop();
  await origin?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => proxy.get(path, { 'x-api-key': key, ...headers });

describe('serving from an origin', () => {
  it('serves the stored bytes and ETags in every encoding, and renders the rest', async () => {
    for (const path of [PATH, '/finanzamt?ags=10041100', '/finanzaemter?gemeinden=1']) {
      for (const encoding of ['br', 'gzip', 'identity'] as const) {
        const res = await get(path, { 'accept-encoding': encoding });
        expect(res.status, `${path} ${encoding}`).toBe(200);
        expect(res.body.equals(tree.file(path, encoding))).toBe(true);
        expect(res.headers.etag).toBe(tree.manifest.entries[path]!.etag);
      }
    }
    expect((await get(PATH, { 'if-none-match': tree.manifest.entries[PATH]!.etag })).status).toBe(304);
    expect((await get('/finanzamt?ags=100&limit=3')).parsed(LookupResponse).anzahl_gemeinden).toBe(3);
  });

  it('sends the origin none of the caller\'s headers', async () => {
    const path = `/finanzamt/${tree.directory.offices[7]!.bufa_nr}`;
    expect((await get(path, { 'x-custom': 'caller', 'accept-encoding': 'br' })).status).toBe(200);
    const object = objectPath(tree.manifest.entries[path]!.object, 'br');
    const fetched = origin.requests.filter((r) => r.path.endsWith(object));
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.headers['accept-encoding']).toBe('br');
    for (const { headers } of origin.requests) {
      expect(headers['x-api-key']).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-custom']).toBeUndefined();
    }
    expect(JSON.stringify(origin.requests)).not.toContain(key);
  });

  it('answers 503 for a body slower than --read-timeout, and serves it once the origin is fast again', async () => {
    const path = '/finanzamt/2117/bezirk';
    origin.delay = (p) => (p.includes('/objects/') ? 3_000 : 0);
    const started = performance.now();
    const slow = await get(path);
    expect(slow.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(2_500);
    origin.delay = () => 0;
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.body.equals(tree.file(path))).toBe(true);
  });

  it('answers 503 within --read-timeout while the origin is gone, and serves again once it is back, without restart', async () => {
    const path = `/finanzamt/${tree.directory.offices[9]!.bufa_nr}/bezirk`; // never asked before, so not in memory
    const port = Number(new URL(origin.url).port);
    await origin.close();
    for (const encoding of ['br', 'gzip']) {
      const started = performance.now();
      const gone = await get(path, { 'accept-encoding': encoding });
      expect(performance.now() - started).toBeLessThan(800 + 500);
      expect(gone.status).toBe(503);
      expect(gone.parsed(ErrorResponse).code).toBe('unavailable');
    }
    expect((await proxy.get('/healthz')).status).toBe(200);
    origin = await startOrigin(root, port);
    await eventually('the origin to be used again', async () => (await get(path)).status === 200, 10_000);
    expect((await get(path, { 'accept-encoding': 'gzip' })).body.equals(tree.file(path, 'gzip'))).toBe(true);
  });

  it('switches versions when the pointer changes, and refuses damaged bodies', async () => {
    const DAMAGED = `/finanzamt/${tree.directory.offices[5]!.bufa_nr}`;
    const intact = tree.file(DAMAGED);
    const damaged = Buffer.from(intact);
    damaged.writeUInt8(damaged[20]! ^ 1, 20);
    const b = writeVersion(root, 'b', {
      from: 'saarland',
      bodies: { [PATH]: tree.file(PATH).toString('utf8').replace('"Flensburg"', '"Flensburg (B)"') },
      damaged: { [objectPath(tree.manifest.entries[DAMAGED]!.object, 'identity')]: damaged },
    });
    point('b');
    await eventually('version b', async () => (await get(PATH)).text.includes('Flensburg (B)'), 20_000);
    expect((await get(PATH)).headers.etag).toBe(b.entries[PATH]!.etag);
    expect((await proxy.get('/healthz')).parsed(HealthResponse).build_id).toBe(b.build_id);
    expect((await get(DAMAGED)).status).toBe(503);
    expect((await get(DAMAGED, { 'accept-encoding': 'gzip' })).status).toBe(200);
  });

  it('follows a version by its build id: an ETag new on every request costs no reload, a rebuild under the same name is taken', async () => {
    const MANIFEST = '/b/manifest.json';
    let n = 0;
    origin.etag = (_path, tag) => `${tag.slice(0, -1)}-${n++}"`;
    /** The origin's requests for b's manifest and the proxy's loads while `ms` pass. */
    const watch = async (ms: number) => {
      const [asked, from] = [origin.requests.length, Date.now()];
      await new Promise((r) => setTimeout(r, ms));
      // Lines are written in batches: one logged before the window may appear in it.
      await new Promise((r) => setTimeout(r, 500));
      const loads = proxy.logLines().filter((l) => (l.msg === 'version loaded' || l.msg === 'version unchanged') && Number(l.time) >= from);
      return { manifest: origin.requests.slice(asked).filter((r) => r.path === MANIFEST), loads };
    };
    const flapping = await watch(4_000);
    // Polled each second, each time with one small request for the manifest's first bytes, and nothing loaded again.
    expect(flapping.manifest.length).toBeGreaterThanOrEqual(3);
    expect(flapping.manifest.map((r) => `${r.method} ${r.headers.range}`)).toEqual(flapping.manifest.map(() => `GET bytes=0-${MANIFEST_HEAD_BYTES - 1}`));
    expect(flapping.loads).toEqual([]);

    // An origin that ignores ranges sends the whole manifest: only its first bytes are read, and nothing is loaded.
    origin.ranges = false;
    expect((await watch(3_000)).loads).toEqual([]);

    const rebuilt = writeVersion(root, 'b', { from: 'saarland', buildId: 'b-rebuilt', bodies: { [PATH]: tree.file(PATH).toString('utf8').replace('"Flensburg"', '"Flensburg (B2)"') } });
    await eventually('the rebuild of b', async () => (await get(PATH)).text.includes('Flensburg (B2)'), 20_000);
    expect((await proxy.get('/healthz')).parsed(HealthResponse).build_id).toBe(rebuilt.build_id);
    origin.ranges = true;
    origin.etag = (_path, tag) => tag;
  });

  it('keeps serving while the origin publishes no version, says so, and follows it when it does again', async () => {
    rmSync(join(root, 'current'));
    await eventually('/healthz to say current is missing', async () => (await proxy.get('/healthz')).parsed(HealthResponse).nicht_geladen?.grund.includes(`${origin.url}/current does not exist (HTTP 404)`) === true, 20_000);
    expect((await get(PATH)).status).toBe(200);
    point('b');
    await eventually('/healthz to say all is well again', async () => (await proxy.get('/healthz')).parsed(HealthResponse).nicht_geladen === undefined, 20_000);
  });
});
