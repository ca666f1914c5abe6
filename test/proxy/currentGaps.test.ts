// `current` missing for moments, as `rm current && ln -s …`, rsync or a non-atomic `ln -sf` leave it, while
// requests keep coming: the version served stays loaded, so no request, /healthz included, is answered 503.
// test/load/currentGapsUnderLoad.test.ts does the same under sustained load.
import { symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthResponse } from '../../core/health.ts';
import { eventually } from '../support/http.ts';
import { issueKey, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { scratchDist } from '../support/versions.ts';

const PATHS = ['/finanzamt/2115', '/finanzamt/2115/bezirk', '/finanzamt?ort=Saarlouis', '/finanzamt?plz=66111', '/healthz'];
const GAPS = 20;
const GAP_MS = 20;

let dist: string;
let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  const scratch = scratchDist('finanzamt-gaps-');
  dist = scratch.dist;
  const keysFile = join(scratch.dir, 'keys.json');
  key = await issueKey(keysFile, 'gaps');
  proxy = await startProxy({ keysFile, args: ['--dist', dist, ...UNLIMITED] });
});

afterAll(async () => {
  await proxy?.stop();
});

describe('current missing for moments', () => {
  it(`answers every request while current is removed and made again ${GAPS} times, ${GAP_MS} ms each`, async () => {
    const served = (await proxy.get('/healthz')).parsed(HealthResponse).build_id;
    const current = join(dist, 'current');
    let stop = false;
    const statuses = new Map<string, number>();
    const ask = async (path: string) => {
      while (!stop) {
        const answer = `${path} ${(await proxy.get(path, { 'x-api-key': key })).status}`;
        statuses.set(answer, (statuses.get(answer) ?? 0) + 1);
      }
    };
    const askers = PATHS.map(ask);
    for (let gap = 0; gap < GAPS; gap++) {
      unlinkSync(current);
      await new Promise((r) => setTimeout(r, GAP_MS));
      symlinkSync('a', current);
      await new Promise((r) => setTimeout(r, 5 * GAP_MS));
    }
    stop = true;
    await Promise.all(askers);
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(PATHS.map((p) => [`${p} 200`, expect.any(Number)])));
    expect([...statuses.values()].reduce((a, b) => a + b)).toBeGreaterThan(GAPS * PATHS.length);
    expect((await proxy.get('/healthz')).parsed(HealthResponse).build_id).toBe(served);
    // Each gap was seen (the watch reacts to the removal at once) and said, and its end too.
    await eventually('a gap in the log', async () => proxy.logLines().some((l) => String(l.msg).includes(`${current} does not exist`) && String(l.msg).endsWith('; still serving a')));
    await eventually('its end in the log', async () => proxy.logLines().some((l) => l.msg === 'the published version is the one served again'));
  });
});
