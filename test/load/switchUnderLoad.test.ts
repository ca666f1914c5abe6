// A version switch in the middle of sustained load: autocannon holds the proxy busy with every question
// two real builds share, from 65,536 client addresses under the default rate limit, while `dist/current` is
// switched back and forth between them. Every response is checked by the load client (load/versionChecker.ts):
// status 200, and the `stand` at the start of the body is the date the ETag names, so a response whose body came
// from one version and whose ETag from the other would be counted. Two versions of different
// dates, built by the real CLI from the shipped bundle cut down to Saarland.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Manifest, MANIFEST_FILE } from '../../core/manifest.ts';
import { DOCUMENTS } from '../../core/routes.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { runCli } from '../ops/support/cli.ts';
import { eventually } from '../support/http.ts';
import { HealthResponse } from '../../core/health.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { publish } from '../support/versions.ts';
import { startLoadClient } from './clients/start.ts';
import { VersionCounts } from './clients/versionCounts.ts';

const VERSIONS = ['20251130_0000', '20260228_0000'];
const LOAD_SECONDS = 12;
const SWITCHES = 4;
/** Questions no build stores, rendered by the proxy from the version it took: the dynamic path switches too. */
const RENDERED = ['/finanzamt?ort=Saarbr%C3%BCcken', '/finanzamt?ort=Neunkirchen&limit=3', '/finanzamt?ags=100&limit=7', '/finanzaemter?bundesland=saar'];

let dist: string;
let scratch: string;
let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  scratch = scratchDir('finanzamt-switch-');
  dist = join(scratch, 'dist');
  for (const version of VERSIONS) {
    const source = saarlandBundle(join(scratch, `saarland-${version}`), version);
    const build = await runCli(['build', '--source', source, '--out', dist]);
    expect(build.status, build.stderr).toBe(0);
  }
  const keysFile = join(scratch, 'keys.json');
  key = await issueKey(keysFile, 'switch');
  // The default rate limit, with the client address taken from X-Forwarded-For as behind a load balancer.
  proxy = await startProxy({ keysFile, args: ['--dist', dist, '--trust-proxy', '127.0.0.1'] });
}, 5 * 60_000);

afterAll(async () => {
  await proxy?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const manifestOf = (version: string) => Manifest.parse(JSON.parse(readFileSync(join(dist, version, MANIFEST_FILE), 'utf8')));
const served = async () => (await proxy.get('/healthz')).parsed(HealthResponse).stand_quelle;

describe('a version switch under sustained load', () => {
  it('gives no error and no response that mixes the two versions', async () => {
    const [a, b] = VERSIONS.map(manifestOf) as [Manifest, Manifest];
    // The answers, not the documents the build stores beside them (their bodies carry no `stand` to check).
    const shared = Object.keys(a.entries).filter((k) => Object.hasOwn(b.entries, k) && !Object.hasOwn(DOCUMENTS, k));
    expect(shared.length).toBeGreaterThan(100);
    const settings = { url: proxy.url, key, paths: [...shared, ...RENDERED], seconds: LOAD_SECONDS };
    const load = await startLoadClient(join(import.meta.dirname, 'clients', 'versionChecker.ts'), settings, VersionCounts);
    const switchedTo: string[] = [];
    const pause = (LOAD_SECONDS * 1000) / (SWITCHES + 1);
    for (let i = 0; i < SWITCHES; i++) {
      await new Promise((r) => setTimeout(r, pause));
      const next = VERSIONS[i % 2 === 0 ? 0 : 1]!;
      publish(dist, next);
      await eventually(`the switch to ${next}`, async () => (await served()) === next, 5_000);
      switchedTo.push(next);
    }
    const counts = await load.done;
    console.log(`switch under load: ${counts.requests} requests in ${LOAD_SECONDS} s (${Math.round(counts.requests / LOAD_SECONDS)}/s), ${SWITCHES} switches, by stand ${JSON.stringify(counts.by_stand)}, `
      + `${counts.not_ok} not 200, ${counts.mixed} mixed, ${counts.socket_errors} socket errors`);

    expect(switchedTo).toEqual([VERSIONS[0], VERSIONS[1], VERSIONS[0], VERSIONS[1]]);
    expect(counts.socket_errors).toBe(0);
    expect(counts.not_ok).toBe(0);
    expect(counts.mixed).toBe(0);
    // Every response was looked at, and both versions were served while the load ran.
    expect(counts.checked).toBe(counts.requests);
    expect(counts.requests).toBeGreaterThan(5_000);
    expect(Object.keys(counts.by_stand).sort()).toEqual(VERSIONS.map((v) => v.slice(0, 8)));
    for (const n of Object.values(counts.by_stand)) expect(n).toBeGreaterThan(500);
  });
});
