// End to end: build, deploy to a real S3-protocol server (s3rver on loopback), and serve with the proxy's
// --origin mode from that storage. Callers get the same bodies, ETags and 304s as from local disk, and a deploy
// of the next version that is killed midway and rerun never makes the proxy serve half a version.
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../support/localS3.ts';
import { versionFiles } from '../../build/deploy/versionFiles.ts';
import { decompressSync } from '../../core/compress.ts';
import { eventually } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { saarlandBundle } from '../support/bundles.ts';
import { runCli, startCli } from './support/cli.ts';

const FIRST = '20251031_0000';
const SECOND = '20251231_0000';
const QUESTIONS = [
  '/finanzamt?ags=10041100', '/finanzamt?ags=10&gemeinden=1', '/finanzamt?plz=66111', '/finanzamt?ort=Saarbruecken',
  '/finanzamt?ags=10041100&limit=3', '/finanzamt/1040', '/finanzamt/1040?gemeinden=1', '/finanzamt/1040/bezirk',
  '/finanzaemter', '/finanzaemter?gemeinden=1', '/finanzaemter?bundesland=saar&limit=2&offset=1', '/finanzamt/9999',
];

describe('the proxy serving a deployed version from object storage', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-origin-e2e-'));
  const dists = { [FIRST]: join(scratch, 'first'), [SECOND]: join(scratch, 'second') };
  let s3: LocalS3;
  let key: string;
  let local: ProxyProcess;
  let origin: ProxyProcess;
  const deployArgs = (dist: string) => ['deploy', '--dist', dist, '--bucket', s3.bucket, '--prefix', 'api'];

  beforeAll(async () => {
    s3 = await startLocalS3();
    for (const [version, dist] of Object.entries(dists)) {
      const source = saarlandBundle(join(scratch, `source-${version}`), version, { ownOffices: true });
      const build = await runCli(['build', '--source', source, '--out', dist]);
      expect(build.status, build.stderr).toBe(0);
      expect(readlinkSync(join(dist, 'current'))).toBe(version);
    }
    const deployed = await runCli(deployArgs(dists[FIRST]!), s3.env);
    expect(deployed.status, deployed.stderr).toBe(0);
    const keysFile = join(scratchDir(), 'keys.json');
    key = await issueKey(keysFile, 'origin-e2e');
    local = await startProxy({ keysFile, args: ['--dist', dists[FIRST]!, ...UNLIMITED] });
    origin = await startProxy({ keysFile, args: ['--origin', `${s3.endpoint}/${s3.bucket}/api`, ...UNLIMITED] });
  }, 10 * 60_000);

  afterAll(async () => {
    await local?.stop();
    await origin?.stop();
    await s3?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('answers every kind of question with the same status, bytes and ETag as the proxy on local disk, and 304s alike', async () => {
    for (const path of QUESTIONS) {
      for (const encoding of ['br', 'identity']) {
        const headers = { 'x-api-key': key, 'accept-encoding': encoding };
        const [a, b] = await Promise.all([local.get(path, headers), origin.get(path, headers)]);
        expect(b.status, path).toBe(a.status);
        expect(b.body.equals(a.body), `${path} (${encoding})`).toBe(true);
        expect(b.headers.etag, path).toBe(a.headers.etag);
        expect(b.headers['content-encoding'], path).toBe(a.headers['content-encoding']);
        if (a.status !== 200) continue;
        const again = await origin.get(path, { ...headers, 'if-none-match': a.headers.etag! });
        expect(again.status, path).toBe(304);
        expect(again.body.length).toBe(0);
      }
    }
  });

  it('keeps serving the whole old version while the next deploy is killed and rerun, then switches whole', async () => {
    const seen = new Set<string>();
    let polling = true;
    const mixed: string[] = [];
    // Every answer during the deploy must be of one version: its ETag's version and its body's stand agree.
    const poll = (async () => {
      while (polling) {
        const res = await origin.get('/finanzamt?ags=10041100', { 'x-api-key': key, 'accept-encoding': 'br' });
        expect(res.status).toBe(200);
        const body = JSON.parse(decompressSync(res.body, 'br').toString('utf8')) as { stand: string; stand_quelle: string };
        const etagVersion = /^W\/"(\d{8}_\d{4})-/.exec(res.headers.etag!)![1]!;
        if (etagVersion !== body.stand_quelle || body.stand !== `${body.stand_quelle.slice(6, 8)}.${body.stand_quelle.slice(4, 6)}.${body.stand_quelle.slice(0, 4)}`) {
          mixed.push(`${res.headers.etag} ${body.stand} ${body.stand_quelle}`);
        }
        seen.add(body.stand_quelle);
      }
    })();

    const files = (await versionFiles(join(dists[SECOND]!, SECOND))).flat().length;
    const killed = startCli(deployArgs(dists[SECOND]!), s3.env);
    const start = s3.created.length;
    await eventually('half of the next version to arrive', async () => s3.created.length - start >= files / 2, 120_000);
    killed.child.kill('SIGKILL');
    await killed.done;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...seen]).toEqual([FIRST]);

    const rerun = await runCli(deployArgs(dists[SECOND]!), s3.env);
    expect(rerun.status, rerun.stderr).toBe(0);
    await eventually('the proxy to serve the next version', async () => seen.has(SECOND), 30_000);
    polling = false;
    await poll;
    expect(mixed).toEqual([]);
    const health = JSON.parse((await origin.get('/healthz')).body.toString('utf8')) as { stand_quelle: string };
    expect(health.stand_quelle).toBe(SECOND);
  }, 5 * 60_000);
});
