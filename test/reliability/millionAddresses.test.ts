// A million distinct client addresses against the real proxy (issue 7): the limiter keeps state for at most
// --rate-clients of them, so the proxy's heap stays where it was. The heap is read through the proxy's inspector
// after full garbage collection, before and after the flood. A bucket for every address would add about
// 100 MB here: with --rate-clients 2000000 the same run grows the heap by that much and fails. wrk pipelines
// the requests so that a million take well under a minute.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runWrkScript } from '../../bench/wrk.ts';
import { untilRefused } from '../support/http.ts';
import { heapAfterGc, INSPECT } from '../support/inspector.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';

const ADDRESSES = 1_000_000;
const RATE_CLIENTS = 10_000;
/** What the heap may grow by: the bound's buckets are already there before the flood; this is room for noise. */
const MAX_GROWTH_MB = 16;
/** The default burst, which this proxy runs with. */
const BURST = 100;
const THREADS = 2;
/** wrk runs in rounds until the million is reached (a slower machine takes more); each round's addresses are new ones. */
const ROUND_SECONDS = 5;
const MAX_ROUNDS = 30;

const Counts = z.object({ requests: z.number(), non_2xx: z.number(), socket_errors: z.number() });

let proxy: ProxyProcess;
let key: string;
let scratch: string;

beforeAll(async () => {
  scratch = scratchDir('finanzamt-million-');
  const keysFile = join(scratch, 'keys.json');
  key = await issueKey(keysFile, 'million');
  proxy = await startProxy({
    keysFile,
    nodeArgs: [INSPECT],
    args: ['--dist', testDist(), '--trust-proxy', '127.0.0.1', '--rate-clients', String(RATE_CLIENTS)],
  });
});

afterAll(async () => {
  await proxy?.stop();
});

/** One wrk round from addresses no other round uses; returns how many requests (and so addresses) it sent. */
async function round(n: number, seconds: number): Promise<number> {
  const script = join(scratch, `round${n}.lua`);
  writeFileSync(script, floodScript(key, n));
  const counts = await runWrkScript(proxy.url, script, { seconds, connections: 8, threads: THREADS }, Counts);
  expect(counts.non_2xx).toBe(0);
  expect(counts.socket_errors).toBe(0);
  return counts.requests;
}

describe('a million distinct client addresses', () => {
  it('are all served while the heap stays where it was, and the limit still holds afterwards', async () => {
    // Warm up and fill the limiter to its bound, so that the heap measured before holds the bound's buckets.
    expect(await round(0, 2)).toBeGreaterThan(RATE_CLIENTS);
    const before = await heapAfterGc(proxy);
    let requests = 0;
    let rounds = 0;
    while (requests < ADDRESSES && rounds < MAX_ROUNDS) requests += await round(++rounds, ROUND_SECONDS);
    const after = await heapAfterGc(proxy);
    console.log(`million addresses: ${requests} requests from as many addresses in ${rounds} rounds of ${ROUND_SECONDS} s, all 200; `
      + `with --rate-clients ${RATE_CLIENTS}, heap after full GC ${before} MB before, ${after} MB after`);

    expect(requests).toBeGreaterThanOrEqual(ADDRESSES);
    expect(after - before).toBeLessThan(MAX_GROWTH_MB);
    expect((await proxy.get('/healthz')).status).toBe(200);
    // The bound forgets old addresses, not the limit: an address that spends its burst now is refused.
    const ask = () => proxy.get('/finanzamt/2115', { 'x-api-key': key, 'x-forwarded-for': '198.51.100.77' });
    for (let i = 0; i < BURST; i++) expect((await ask()).status).toBe(200);
    expect((await untilRefused(ask)).status).toBe(429);
  }, 4 * 60_000);
});

/**
 * wrk's Lua: 16 pipelined requests per write, each from the next address of this thread and round (the first
 * octet tells thread and round apart, the other three count), so no address is seen twice in the whole test.
 */
function floodScript(apiKey: string, round: number): string {
  return `
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("octet", 10 + ${round * THREADS} + threads)
end
local n = 0
local DEPTH = 16
function request()
  local out = {}
  for k = 1, DEPTH do
    out[k] = wrk.format("GET", "/finanzamt/2115", {
      ["X-API-Key"] = ${JSON.stringify(apiKey)},
      ["X-Forwarded-For"] = octet .. "." .. math.floor(n / 65536) % 256 .. "." .. math.floor(n / 256) % 256 .. "." .. (n % 256),
    })
    n = n + 1
  end
  return table.concat(out)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"non_2xx":%d,"socket_errors":%d}\\n', summary.requests, e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}
