// One caller does not slow the others (issue 46, item 1), through the real handler and the real render threads, on
// the whole 2025 tree, whose largest place-name search (`berg`, 200 hits with every office's district) is half a
// megabyte to render and compress. A question costs the rate limit the same by GET as in a batch; and one client
// sending a hundred of the largest renderings at once, within its limit, neither refuses another client's
// renderings nor holds them behind its backlog. Asserted on statuses and on the order the answers come in, not on
// times: how fast is the neighbour benchmark's (bench/neighbourBench.ts).
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../core/model.ts';
import { RENDER_QUEUE_PER_CLIENT } from '../../proxy/cache/renderThreads.ts';
import type { RawResponse } from '../support/http.ts';
import { startInProcess, type RunningProxy } from '../support/inProcessProxy.ts';
import { issueKey, scratchDir } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { HEAVY, spelling } from '../load/clients/respeller.ts';

/** Room for a hundred of the largest questions (ten tokens each), so that the flood stays within its limit. */
const BURST = 1_000;
const FLOODED = 100;
let proxy: RunningProxy;
let key: string;

beforeAll(async () => {
  const keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'fair-share');
  proxy = await startInProcess({ keysFile, args: ['--dist', testDist(), '--burst', String(BURST), '--trust-proxy', '127.0.0.1'] });
});

afterAll(async () => {
  await proxy?.stop();
});

const from = (address: string) => ({ 'x-api-key': key, 'x-forwarded-for': address, 'accept-encoding': 'br' });
const heavy = (ort: string) => `/finanzamt?${new URLSearchParams({ ort, limit: String(HEAVY.limit), gemeinden: String(HEAVY.gemeinden) })}`;
const left = (res: RawResponse) => Number(res.headers['ratelimit-remaining']);

describe('the cost of a question', () => {
  // Each from an address of its own, whose bucket is full: what is left is the burst less the question's weight.
  it.each([
    [{ ort: 'berg', limit: '200', gemeinden: '1' }, 10],
    [{ ort: 'Köln', limit: '150' }, 2],
    [{ plz: '10115', gemeinden: '1', limit: '40' }, 2],
    [{ ags: '05315000' }, 1],
  ])('%o is the same by GET and in a batch: %i tokens', async (question, weight) => {
    const n = Object.keys(question).length * 10 + weight;
    const get = await proxy.get(`/finanzamt?${new URLSearchParams(question)}`, from(`198.51.100.${n}`));
    expect(get.status).toBe(200);
    expect(left(get)).toBe(BURST - weight);
    const batch = await proxy.post('/finanzamt', JSON.stringify({ fragen: [question] }), from(`198.51.100.${n + 100}`));
    expect(batch.status).toBe(200);
    expect(left(batch)).toBe(BURST - weight);
  });

  it('weighs a page of the collection by the offices it may hold, and the whole collection, which is stored, as one', async () => {
    const page = await proxy.get('/finanzaemter?limit=600&gemeinden=1', from('198.51.100.250'));
    expect(page.status).toBe(200);
    expect(left(page)).toBe(BURST - 30);
    const whole = await proxy.get('/finanzaemter?gemeinden=1', from('198.51.100.251'));
    expect(whole.status).toBe(200);
    expect(left(whole)).toBe(BURST - 1);
  });
});

describe('a client flooding the render threads within its limit', () => {
  it('leaves another client\'s renderings and /healthz answered, ahead of its own backlog', async () => {
    // Each render thread loads a version the first time it renders from it, which takes a while: first as many
    // renderings at once as there are threads, so that each has loaded this one.
    const warm = await Promise.all(Array.from({ length: availableParallelism() }, (_, i) => proxy.get(`/finanzamt?ort=Berlin&limit=${i + 1}`, from('192.0.2.200'))));
    expect(warm.map((r) => r.status)).toEqual(warm.map(() => 200));
    /** Who was answered, in the order the answers came. */
    const answered: string[] = [];
    let refused!: () => void;
    const full = new Promise<void>((resolve) => { refused = resolve; });
    const flood = Array.from({ length: FLOODED }, (_, i) => proxy.get(heavy(spelling(20_000 + i)), from('203.0.113.66')).then((res) => {
      answered.push(res.status === 200 ? 'flood' : `flood ${res.status}`);
      // Once one is refused for want of a place, the flood holds all the places it may.
      if (res.status === 503) refused();
      return res;
    }));
    await Promise.race([full, Promise.all(flood)]);
    expect(answered).toContain('flood 503');

    const other = [
      ['/healthz', 'healthz'],
      ['/finanzamt?ort=Neustadt', 'Neustadt'],
      ['/finanzamt?ort=Freiburg', 'Freiburg'],
      ['/finanzamt?ort=bach&gemeinden=1', 'bach'],
      ['/finanzamt?ort=Aachen&limit=5', 'Aachen'],
      [heavy('dorf'), 'dorf, the largest'],
    ].map(([path, name]) => proxy.get(path!, from('192.0.2.7')).then((res) => {
      answered.push(`other ${name}`);
      return res;
    }));
    const answers = await Promise.all(other);
    const floodAnswers = await Promise.all(flood);
    for (const res of answers) expect(res.status, res.text).toBe(200);
    for (const res of floodAnswers.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(503);
      expect(res.parsed(ErrorResponse).code).toBe('unavailable');
      expect(res.headers['retry-after']).toBe('1');
    }
    // The flood's backlog was still waiting when the other client had all its answers: they came before it.
    const last = answered.findLastIndex((a) => a.startsWith('other'));
    const floodAfter = answered.slice(last).filter((a) => a === 'flood').length;
    console.log(`fair share: the flood had ${floodAnswers.filter((r) => r.status === 200).length} of ${FLOODED} answered, `
      + `${floodAfter} of them after the other client's last answer; order: ${answered.filter((a) => !a.startsWith('flood 503')).join(', ')}`);
    expect(floodAfter).toBeGreaterThanOrEqual(RENDER_QUEUE_PER_CLIENT / 2);
  }, 60_000);
});
