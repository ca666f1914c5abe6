// Respelled place names against the real proxy with its default rate limit: ten addresses each send the heaviest
// batch they are allowed (one search in ever new spellings, 200 hits with every district) as often as their bucket
// refills, and four more as many such GETs at once (clients/respeller.ts, a process of its own, at a lower priority:
// it stands for clients on other machines).
// Meanwhile another client's /healthz stays under 50 ms at the 99th percentile, the bound the issue sets, and its own
// place-name lookups, rendered too, are all answered (the render threads' fair share, proxy/cache/renderQueue.ts;
// how fast: the neighbour benchmark): each spelling is an echo of
// one rendering of its search, made, hashed and compressed on the render threads, never on the thread that
// answers /healthz. Once stalled for seconds: every spelling was rendered afresh, a batch's renderings all in one
// turn of the event loop; then for a few hundred milliseconds while the echoes were copied, hashed and collected
// on that thread.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BatchResponse, LookupResponse } from '../../core/model.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { HEAVY, spelling } from './clients/respeller.ts';
import { startLoadClient } from './clients/start.ts';

const SECONDS = 7;
/** The issue's bound for another client's /healthz. */
const HEALTH_MS = 50;
/** Below the rate limit of 20 a second with a lookup beside every other, so that the one measuring is never refused itself. */
const HEALTH_EVERY_MS = 60;
/** What the other client looks up, each time in a new spelling. */
const OTHER_PLACES = ['Neustadt', 'Freiburg', 'Köln', 'Aachen', 'Halle'];

const Counts = z.object({ requests: z.number(), ok: z.number(), limited: z.number(), spellings: z.number() });
const addresses = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);

let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  const keysFile = join(scratchDir('finanzamt-respelled-'), 'keys.json');
  key = await issueKey(keysFile, 'respelled');
  // The default rate limit: every neighbour stays within what it is allowed.
  proxy = await startProxy({ keysFile, args: ['--dist', testDist(), '--trust-proxy', '127.0.0.1'] });
});

afterAll(async () => {
  await proxy?.stop();
});

describe('respelled place names', () => {
  it('leave another client\'s /healthz under 50 ms at p99, and its rendered lookups answered, while neighbours send the heaviest mix they are allowed', async () => {
    const neighbour = await startLoadClient(join(import.meta.dirname, 'clients', 'respeller.ts'), {
      url: proxy.url, key, seconds: SECONDS, encoding: 'br', first: 0,
      batchAddresses: addresses('198.51.100', 10), getAddresses: addresses('203.0.113', 4),
    }, Counts, { nice: 10 });
    const latencies: number[] = [];
    const rendered: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    for (let n = 0; performance.now() < until; n++) {
      const started = performance.now();
      expect((await proxy.get('/healthz')).status).toBe(200);
      latencies.push(performance.now() - started);
      if (n % 2 === 1) {
        // A new spelling each time, so that it is rendered: the other client's own share of the render threads.
        const asked = performance.now();
        const lookup = await proxy.get(`/finanzamt?${new URLSearchParams({ ort: spelling(n, OTHER_PLACES[n % OTHER_PLACES.length]) })}`, { 'x-api-key': key });
        expect(lookup.status, lookup.text).toBe(200);
        rendered.push(performance.now() - asked);
      }
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
    const counts = await neighbour.done;
    const sorted = latencies.toSorted((a, b) => a - b);
    const lookups = rendered.toSorted((a, b) => a - b);
    console.log(`respelled: ${counts.requests} requests with ${counts.spellings} spellings of one search, ${counts.ok} answered 200; `
      + `/healthz beside them: median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, p99 ${sorted[Math.ceil(sorted.length * 0.99) - 1]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms of ${sorted.length}; `
      + `rendered place names: median ${lookups[lookups.length >> 1]!.toFixed(1)} ms, max ${lookups.at(-1)!.toFixed(1)} ms of ${lookups.length}`);
    expect(counts.ok).toBe(counts.requests);
    // The 99th percentile: of about 110 samples, one may be a pause of the measuring worker itself (its own garbage
    // collection, a core taken by the machine), as once in CI at 52 ms while the others stayed under 30 ms.
    expect(sorted[Math.ceil(sorted.length * 0.99) - 1]).toBeLessThan(HEALTH_MS);
  }, 60_000);

  it('answers each spelling in a batch as its GET does, echoing it in frage', async () => {
    const spellings = [spelling(100_001), spelling(100_002), spelling(100_003)];
    const batch = await proxy.post('/finanzamt', JSON.stringify({ fragen: spellings.map((ort) => ({ ort, ...HEAVY })) }), { 'x-api-key': key });
    expect(batch.status).toBe(200);
    const { antworten } = batch.parsed(BatchResponse);
    for (const [i, ort] of spellings.entries()) {
      const get = await proxy.get(`/finanzamt?${new URLSearchParams({ ort, limit: String(HEAVY.limit), gemeinden: '1' })}`, { 'x-api-key': key });
      expect(get.status).toBe(200);
      const answer = get.parsed(LookupResponse);
      expect(answer.frage.ort).toBe(ort);
      expect(antworten[i]).toEqual({ status: 200, antwort: JSON.parse(get.text) });
    }
  });
});
