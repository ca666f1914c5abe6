// A neighbour that sends the worst place-name mix it is allowed, within the rate limit of each of its addresses:
// one search (`berg`, 200 hits with every office's district: the largest lookup there is) in ever new spellings,
// which `ort` folds into one search but `frage` echoes, so that no cache keyed by the spelling helps. Such a
// question costs ten tokens by GET as in a batch (core/batchWeight.ts), so a bucket of the default burst holds
// ten: batch addresses each send a batch of ten, GET addresses ten GETs at once, whenever their bucket has
// refilled, which is as many renderings as a second's worth a bucket earns, all waiting for the render threads at
// once. Used by test/load/respelled.test.ts and the neighbour benchmark (bench/neighbourBench.ts).
import { request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { report, settings } from './client.ts';

/** The heaviest lookup: every office of 200 hits with its whole district. */
export const HEAVY = { limit: 200, gemeinden: 1 } as const;
const WORD = 'berg';
/** Questions in each batch, and GETs sent at once: weight 10 each (core/batchWeight.ts), so ten fill the default burst of 100. */
export const BATCH_QUESTIONS = 10;
/** The 5 s the bucket takes to refill, and a little more, so that a burst never arrives just before it is full. */
const BATCH_EVERY_MS = 5500;

/**
 * The `n`th spelling of one search (`word`, by default the largest): every mix of upper and lower case, then
 * punctuation after it, `n` in binary.
 */
export function spelling(n: number, word = WORD): string {
  const letters = [...word];
  const cased = letters.map((c, i) => ((n >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
  return cased + (n >> letters.length).toString(2).replaceAll('0', '.').replaceAll('1', ',');
}

const Settings = z.object({
  url: z.string(), key: z.string(), seconds: z.number(), encoding: z.string(),
  batchAddresses: z.array(z.string()), getAddresses: z.array(z.string()),
  /** Where this client's spellings start, so that two runs against one proxy ask new ones. */
  first: z.number().int(),
});

/** Status of one request, once its body has arrived. */
function send(url: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: body === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode!)).on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const o = await settings(Settings);
  const until = Date.now() + o.seconds * 1000;
  let next = o.first;
  const statuses: number[] = [];
  const common = { 'x-api-key': o.key, 'accept-encoding': o.encoding };
  // Each address at its own moment in the refill period, as independent clients would be.
  const addresses = o.batchAddresses.length + o.getAddresses.length;
  const phase = (i: number) => sleep((i * BATCH_EVERY_MS) / addresses);
  const batches = o.batchAddresses.map(async (address, i) => {
    await phase(i);
    while (Date.now() < until) {
      const started = Date.now();
      const fragen = Array.from({ length: BATCH_QUESTIONS }, () => ({ ort: spelling(next++), ...HEAVY }));
      statuses.push(await send(`${o.url}/finanzamt`, { ...common, 'x-forwarded-for': address, 'content-type': 'application/json' }, JSON.stringify({ fragen })));
      await sleep(BATCH_EVERY_MS - (Date.now() - started));
    }
  });
  const gets = o.getAddresses.map(async (address, i) => {
    await phase(o.batchAddresses.length + i);
    while (Date.now() < until) {
      const started = Date.now();
      const asked = Array.from({ length: BATCH_QUESTIONS }, () => {
        const query = new URLSearchParams({ ort: spelling(next++), limit: String(HEAVY.limit), gemeinden: String(HEAVY.gemeinden) });
        return send(`${o.url}/finanzamt?${query}`, { ...common, 'x-forwarded-for': address });
      });
      statuses.push(...await Promise.all(asked));
      await sleep(BATCH_EVERY_MS - (Date.now() - started));
    }
  });
  process.stdout.write('started\n');
  await Promise.all([...batches, ...gets]);
  report({ requests: statuses.length, ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length, spellings: next - o.first });
}
