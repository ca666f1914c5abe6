// A million distinct client addresses against the real proxy, started with the systemd unit's node flags: the
// limiter keeps state for at most --rate-clients of them, so the proxy's heap after full garbage collection stays
// where it was, far below the unit's --max-old-space-size. The heap is read through the proxy's inspector after
// full garbage collection, before and after the flood; the resident size is printed beside it (it follows the
// garbage made meanwhile and what the allocator keeps, not what is held). A bucket for every address would add
// about 100 MB here: with --rate-clients 2000000 the same run grows the heap by that much and fails. The load
// clients (load/addressFlood.ts, autocannon) pipeline the requests so that a million fit in the time the test has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { untilRefused } from '../support/http.ts';
import { heapAfterGc, INSPECT } from '../support/inspector.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { unitEnvironment } from '../support/unitEnvironment.ts';
import { startLoadClient } from './clients/start.ts';

const ADDRESSES = 1_000_000;
const RATE_CLIENTS = 10_000;
/** What the heap may grow by: the bound's buckets are already there before the flood; this is room for noise. */
const MAX_GROWTH_MB = 16;
/** The unit's node flags, with which the proxy runs here as deployed; the heap limit among them. */
const UNIT_NODE_FLAGS = unitEnvironment().NODE_OPTIONS!.split(' ');
const MAX_OLD_SPACE_MB = Number(/--max-old-space-size=(\d+)/.exec(unitEnvironment().NODE_OPTIONS!)![1]);
/** The default burst, which this proxy runs with. */
const BURST = 100;
/** Load clients at once, each a process of its own: one per core. */
const CLIENTS = 2;
/** The load runs in rounds until the million is reached (a slower machine takes more); each round's addresses are new ones. */
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
    nodeArgs: [INSPECT, ...UNIT_NODE_FLAGS],
    args: ['--dist', testDist(), '--trust-proxy', '127.0.0.1', '--rate-clients', String(RATE_CLIENTS)],
  });
});

afterAll(async () => {
  await proxy?.stop();
});

/** MB resident now, and at most so far, of the proxy process. */
function residentMb(): { now: number; peak: number } {
  const status = readFileSync(`/proc/${proxy.child.pid}/status`, 'utf8');
  const mb = (field: string) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)![1]) / 1024);
  return { now: mb('VmRSS'), peak: mb('VmHWM') };
}

/**
 * One round from addresses no other round uses (each client's first octet tells round and client apart); returns
 * how many requests (and so addresses) it sent.
 */
async function round(n: number, seconds: number): Promise<number> {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, c) =>
    startLoadClient(join(import.meta.dirname, 'clients', 'addressFlood.ts'), { url: proxy.url, key, octet: 11 + n * CLIENTS + c, seconds }, Counts)));
  let requests = 0;
  for (const { done } of clients) {
    const counts = await done;
    expect(counts.non_2xx).toBe(0);
    expect(counts.socket_errors).toBe(0);
    requests += counts.requests;
  }
  return requests;
}

describe('a million distinct client addresses', () => {
  it('are all served while the heap stays where it was, and the limit still holds afterwards', async () => {
    // Warm up and fill the limiter to its bound, so that the heap measured before holds the bound's buckets.
    expect(await round(0, 2)).toBeGreaterThan(RATE_CLIENTS);
    const before = await heapAfterGc(proxy);
    const residentBefore = residentMb().now;
    let requests = 0;
    let rounds = 0;
    while (requests < ADDRESSES && rounds < MAX_ROUNDS) requests += await round(++rounds, ROUND_SECONDS);
    const after = await heapAfterGc(proxy);
    const resident = residentMb();
    console.log(`million addresses: ${requests} requests from as many addresses in ${rounds} rounds of ${ROUND_SECONDS} s, all 200; `
      + `with --rate-clients ${RATE_CLIENTS}, heap after full GC ${before} MB before, ${after} MB after; `
      + `resident ${residentBefore} MB before, ${resident.now} MB after, ${resident.peak} MB at most`);

    expect(requests).toBeGreaterThanOrEqual(ADDRESSES);
    expect(after - before).toBeLessThan(MAX_GROWTH_MB);
    // Headroom: what is held stays below half of what the unit lets the heap grow to.
    expect(after).toBeLessThan(MAX_OLD_SPACE_MB / 2);
    expect((await proxy.get('/healthz')).status).toBe(200);
    // The bound forgets old addresses, not the limit: an address that spends its burst now is refused.
    const ask = () => proxy.get('/finanzamt/2115', { 'x-api-key': key, 'x-forwarded-for': '198.51.100.77' });
    for (let i = 0; i < BURST; i++) expect((await ask()).status).toBe(200);
    expect((await untilRefused(ask)).status).toBe(429);
  }, 4 * 60_000);
});
