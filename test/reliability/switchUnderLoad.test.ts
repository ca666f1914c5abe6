// A version switch in the middle of sustained load (issue 7): wrk holds the proxy busy with every question two
// real builds share, from 65,536 client addresses under the default rate limit, while `dist/current` is
// switched back and forth between them. Every response is checked
// inside wrk: status 200, and the `stand` at the start of the body is the date the ETag names, so a response
// whose body came from one version and whose ETag from the other would be counted. Two versions of different
// dates, built by the real CLI from the shipped bundle cut down to Saarland.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Manifest, MANIFEST_FILE } from '../../core/manifest.ts';
import { runWrkScript } from '../../bench/wrk.ts';
import { saarlandBundle } from '../ops/support/bundles.ts';
import { runCli } from '../ops/support/cli.ts';
import { eventually } from '../support/http.ts';
import { HealthResponse } from '../../proxy/health.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { publish } from '../support/versions.ts';

const VERSIONS = ['20251130_0000', '20260228_0000'];
const LOAD_SECONDS = 12;
const SWITCHES = 4;
/** Questions no build stores, rendered by the proxy from the version it took: the dynamic path switches too. */
const RENDERED = ['/finanzamt?ort=Saarbr%C3%BCcken', '/finanzamt?ort=Neunkirchen&limit=3', '/finanzamt?ags=100&limit=7', '/finanzaemter?bundesland=saar'];

const Counts = z.object({
  requests: z.number(),
  socket_errors: z.number(),
  checked: z.number(),
  not_ok: z.number(),
  mixed: z.number(),
  by_stand: z.record(z.string(), z.number()),
});

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
    const shared = Object.keys(a.entries).filter((k) => Object.hasOwn(b.entries, k));
    expect(shared.length).toBeGreaterThan(100);
    const script = join(scratch, 'switch.lua');
    writeFileSync(script, checkingScript([...shared, ...RENDERED], key));

    const load = runWrkScript(proxy.url, script, { seconds: LOAD_SECONDS, connections: 16, threads: 1 }, Counts);
    const switchedTo: string[] = [];
    const pause = (LOAD_SECONDS * 1000) / (SWITCHES + 1);
    for (let i = 0; i < SWITCHES; i++) {
      await new Promise((r) => setTimeout(r, pause));
      const next = VERSIONS[i % 2 === 0 ? 0 : 1]!;
      publish(dist, next);
      await eventually(`the switch to ${next}`, async () => (await served()) === next, 5_000);
      switchedTo.push(next);
    }
    const counts = await load;
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

/**
 * wrk's Lua: cycles through `paths` and client addresses without Accept-Encoding (so bodies are readable JSON)
 * and checks each response; `done` prints the counts as one JSON line. A response's checks run in wrk's thread, so `done`
 * reads them from there.
 */
function checkingScript(paths: string[], apiKey: string): string {
  return `
local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }
local threads = {}
function setup(thread) table.insert(threads, thread) end
checked, not_ok, mixed, by_stand = 0, 0, 0, {}
local n = 0
function request()
  n = n + 1
  -- Each of 65536 addresses asks once every 65536 requests: a crowd, none of them near its rate.
  local a = n % 65536
  return wrk.format("GET", paths[n % #paths + 1], {
    ["X-API-Key"] = ${JSON.stringify(apiKey)},
    ["X-Forwarded-For"] = "10.77." .. math.floor(a / 256) .. "." .. (a % 256),
  })
end
function response(status, headers, body)
  checked = checked + 1
  if status ~= 200 then not_ok = not_ok + 1 return end
  local d, m, y = body:match('^{"stand":"(%d%d)%.(%d%d)%.(%d%d%d%d)"')
  local etag = headers["etag"] or headers["ETag"] or ""
  local tagged = etag:match('^W/"(%d%d%d%d%d%d%d%d)_%d%d%d%d%-')
  if d == nil or tagged ~= y .. m .. d then
    mixed = mixed + 1
  else
    by_stand[tagged] = (by_stand[tagged] or 0) + 1
  end
end
function done(summary, latency, requests)
  local c, o, x, merged, stands = 0, 0, 0, {}, {}
  for _, t in ipairs(threads) do
    c = c + t:get("checked"); o = o + t:get("not_ok"); x = x + t:get("mixed")
    for k, v in pairs(t:get("by_stand")) do merged[k] = (merged[k] or 0) + v end
  end
  for k, v in pairs(merged) do table.insert(stands, string.format('"%s":%d', k, v)) end
  local e = summary.errors
  io.write(string.format('{"requests":%d,"socket_errors":%d,"checked":%d,"not_ok":%d,"mixed":%d,"by_stand":{%s}}\\n',
    summary.requests, e.connect + e.read + e.write + e.timeout, c, o, x, table.concat(stands, ",")))
end
`;
}
