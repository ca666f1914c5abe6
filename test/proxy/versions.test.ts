// The served version follows `dist/current` while the proxy runs: 503 while nothing is published, an atomic
// switch to a new version or rebuild, damaged files refused, a broken version not taken, recovery by itself.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../core/model.ts';
import { objectPath } from '../../core/manifest.ts';
import { HealthResponse } from '../../core/health.ts';
import { eventually, type RawResponse } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testTree } from '../support/tree.ts';
import { publish, unpublish, writeVersion } from '../support/versions.ts';

const tree = testTree('saarland');
const PATH = '/finanzamt/2115';
const DISTRICT = '/finanzamt/2115/bezirk';
let dist: string;
let proxy: ProxyProcess;
let key: string;

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
  writeVersion(dist, 'a', { from: 'saarland' });
  proxy = await startProxy({ keysFile, args: ['--dist', dist, ...UNLIMITED], healthy: false });
});

afterAll(async () => {
  await proxy?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => proxy.get(path, { 'x-api-key': key, ...headers });
const buildId = async () => {
  const res = await proxy.get('/healthz');
  return res.status === 200 ? (res.parsed(HealthResponse).build_id) : null;
};

describe('following dist/current', () => {
  it('answers 503 while no version is published, and serves one as soon as it is', async () => {
    const health = await proxy.get('/healthz');
    expect(health.status).toBe(503);
    expect(health.parsed(ErrorResponse)).toEqual({ detail: expect.any(String), code: 'unavailable' });
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

  it('answers ort questions with 503 when the version has no place index, and with it otherwise', async () => {
    expect((await get('/finanzamt?ort=Saarlouis')).status).toBe(200);
    const bare = writeVersion(dist, 'no-search', { from: 'saarland', withoutSearch: true });
    publish(dist, 'no-search');
    await eventually('the version without index', async () => (await buildId()) === bare.build_id, 20_000);
    const res = await get('/finanzamt?ort=Saarlouis');
    expect(res.status).toBe(503);
    expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.any(String), code: 'unavailable', stand: bare.stand });
    expect((await proxy.get('/healthz')).parsed(HealthResponse).ortssuche).toBe(false);
    expect((await get(PATH)).status).toBe(200);
  });

  it('answers 503 when the tree goes away, and recovers when it comes back', async () => {
    unpublish(dist);
    await eventually('503 without a tree', async () => (await get(PATH)).status === 503, 20_000);
    expect((await proxy.get('/healthz')).status).toBe(503);
    publish(dist, 'a');
    await eventually('recovery', async () => (await get(PATH)).status === 200, 20_000);
    expect((await get(PATH)).body.equals(original)).toBe(true);
    expect(proxy.child.exitCode).toBeNull();
  });
});
