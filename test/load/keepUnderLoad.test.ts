// `build --keep 0` while a proxy serves under load: the build switches `current` and prunes, but the version the
// proxy serves until it has loaded the new one stays on disk, so no request meets a removed body. The proxy keeps
// no body in memory (`--cache-bytes 1`), so every stored answer is read from the served version's directory, as a
// proxy whose cache is cold or too small for the tree does. The load client (load/versionChecker.ts) counts every
// response that is not 200 or mixes the two versions. Two versions of different dates, built by the real CLI from
// the frozen bundle cut down to Saarland's municipalities and offices.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Manifest, MANIFEST_FILE } from '../../core/manifest.ts';
import { DOCUMENTS } from '../../core/routes.ts';
import { HealthResponse } from '../../core/health.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { runCli } from '../ops/support/cli.ts';
import { eventually } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { startLoadClient } from './clients/start.ts';
import { VersionCounts } from './clients/versionCounts.ts';

const SERVED = '20251130_0000';
const NEXT = '20251231_0000';
/** Long enough for the build of the next version beside the load on two cores, and for the proxy's switch after it. */
const LOAD_SECONDS = 40;

let scratch: string;
let dist: string;
let nextSource: string;
let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  scratch = scratchDir('finanzamt-keep-');
  dist = join(scratch, 'dist');
  const built = await runCli(['build', '--source', saarlandBundle(join(scratch, 'served'), SERVED, { ownOffices: true }), '--out', dist]);
  expect(built.status, built.stderr).toBe(0);
  nextSource = saarlandBundle(join(scratch, 'next'), NEXT, { ownOffices: true });
  const keysFile = join(scratch, 'keys.json');
  key = await issueKey(keysFile, 'keep');
  proxy = await startProxy({ keysFile, args: ['--dist', dist, '--trust-proxy', '127.0.0.1', '--cache-bytes', '1'] });
}, 5 * 60_000);

afterAll(async () => {
  await proxy?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('build --keep 0 under load', () => {
  it('publishes the next version without one failed request: the served one stays until the proxy has switched', async () => {
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(dist, SERVED, MANIFEST_FILE), 'utf8')));
    // The stored answers (not the documents beside them, whose bodies carry no `stand` to check).
    const paths = Object.keys(manifest.entries).filter((k) => !Object.hasOwn(DOCUMENTS, k));
    expect(paths.length).toBeGreaterThan(100);
    const load = await startLoadClient(join(import.meta.dirname, 'clients', 'versionChecker.ts'), { url: proxy.url, key, paths, seconds: LOAD_SECONDS }, VersionCounts, { nice: 5 });
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const build = await runCli(['build', '--source', nextSource, '--out', dist, '--keep', '0']);
    expect(build.status, build.stderr).toBe(0);
    await eventually(`the switch to ${NEXT}`, async () => (await proxy.get('/healthz')).parsed(HealthResponse).stand_quelle === NEXT, 10_000);
    const switchedAfter = (Date.now() - started) / 1000;
    const counts = await load.done;
    console.log(`keep 0 under load: ${counts.requests} requests in ${LOAD_SECONDS} s, switched after ${switchedAfter.toFixed(1)} s, by stand ${JSON.stringify(counts.by_stand)}, `
      + `${counts.not_ok} not 200, ${counts.mixed} mixed, ${counts.socket_errors} socket errors`);

    expect(switchedAfter, 'the switch must happen while the load runs').toBeLessThan(LOAD_SECONDS - 2);
    expect(counts.socket_errors).toBe(0);
    expect(counts.not_ok).toBe(0);
    expect(counts.mixed).toBe(0);
    expect(counts.checked).toBe(counts.requests);
    expect(Object.keys(counts.by_stand).sort()).toEqual([SERVED, NEXT].map((v) => v.slice(0, 8)));
    // The version current named before the build is kept whatever --keep says; the next build may remove it.
    expect(existsSync(join(dist, SERVED, MANIFEST_FILE))).toBe(true);
  }, 2 * 60_000);
});
