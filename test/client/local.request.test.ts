// Local directory mode against the service: 1,000 seeded random `ags` and 1,000 `plz` questions, every office
// and every district, each answered locally and by the real proxy.
//
// Where the collection lacks the data, local answers cannot agree; the cases are decided from the service's
// own directory, never from the local answer:
//   - `ags`: the prefix matches a municipality to which no office is assigned (unpopulated areas): such a
//     municipality is in no office's district, so the collection does not know it; for a prefix without hits,
//     the same of the prefix with a leading zero, whose municipalities the hint counts;
//   - `plz`: the municipalities the service's postal-code index lists under the code are not exactly those
//     whose one `plz` in the collection is the code (the index also holds every further code of a municipality).
// Those answers must still name only municipalities and offices that the service has for the question.
import { beforeAll, describe, expect, it } from 'vitest';
import { FinanzamtApiError, FinanzamtClient, type LocalDirectory, type LookupOptions } from '../../client/index.ts';
import { municipalitiesUnder } from '../../core/directoryIndex.ts';
import { DistrictResponse, ErrorResponse, LookupResponse, OfficeResponse, type Municipality } from '../../core/model.ts';
import { eventually } from '../support/http.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const dir = tree.directory;
let service: CallerProxy;
let local: LocalDirectory;

beforeAll(async () => {
  service = await callerOfSharedProxy('local');
  local = await new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: service.key }).localDirectory();
});

/** mulberry32: a small seeded generator, so a failure names a case that can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = random(20251130);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
const options = (): LookupOptions => ({ gemeinden: rnd() < 0.1, limit: pick([20, 20, 20, 1, 5, 200]) });

interface Case {
  by: 'ags' | 'plz';
  value: string;
  options: LookupOptions;
}

const agsCases: Case[] = Array.from({ length: 1000 }, () => {
  const r = rnd();
  const ags = pick(dir.municipalities).ags;
  const value = r < 0.6 ? ags : r < 0.85 ? ags.slice(0, 1 + Math.floor(rnd() * 7)) : digits(1 + Math.floor(rnd() * 8));
  return { by: 'ags', value, options: options() };
});

const withPlz = dir.municipalities.filter((m) => m.plz !== null);
const plzCases: Case[] = Array.from({ length: 1000 }, () => {
  const r = rnd();
  const value = r < 0.5 ? pick(dir.plz)[0] : r < 0.8 ? pick(withPlz).plz! : digits(5);
  return { by: 'plz', value, options: options() };
});

const byAgs = new Map(dir.municipalities.map((m) => [m.ags, m]));
const indexed = new Map(dir.plz.map(([code, keys]) => [code, keys]));

/** The municipalities the service answers the question from (all of them, before `limit`). */
function serviceHits(c: Case): Municipality[] {
  return c.by === 'ags' ? municipalitiesUnder(dir.municipalities, c.value) : (indexed.get(c.value) ?? []).map((k) => byAgs.get(k)!);
}

/** Whether the collection holds what the service answers this question from (see the file comment). */
function reproducible(c: Case): boolean {
  const hits = serviceHits(c);
  if (c.by === 'ags') {
    const counted = hits.length > 0 ? hits : municipalitiesUnder(dir.municipalities, `0${c.value}`);
    return counted.every((m) => m.bufa_nr.length > 0);
  }
  const main = dir.municipalities.filter((m) => m.plz === c.value && m.bufa_nr.length > 0).map((m) => m.ags);
  return main.length === hits.length && hits.every((m) => main.includes(m.ags));
}

async function serviceAnswer(c: Case): Promise<LookupResponse> {
  const params = new URLSearchParams({ [c.by]: c.value, limit: String(c.options.limit), gemeinden: c.options.gemeinden ? '1' : '0' });
  const res = await service.get(`/finanzamt?${params}`);
  expect(res.status).toBe(200);
  return res.parsed(LookupResponse);
}

function localAnswer(c: Case): LookupResponse {
  return c.by === 'ags' ? local.byAgs(c.value, c.options) : local.byPlz(c.value, c.options);
}

describe.each([['ags', agsCases], ['plz', plzCases]] as const)('1,000 random %s lookups', (by, cases) => {
  it('agree with the service wherever the collection holds the data, and are right where it does not', async () => {
    let compared = 0;
    for (const c of cases) {
      const mine = localAnswer(c);
      if (reproducible(c)) {
        expect(mine, `${by}=${c.value} ${JSON.stringify(c.options)}`).toEqual(await serviceAnswer(c));
        compared++;
        continue;
      }
      const possible = new Set(serviceHits(c).flatMap((m) => m.bufa_nr.map((nr) => `${m.ags} ${nr}`)));
      for (const g of mine.gemeinden) expect(possible, `${by}=${c.value}`).toContain(`${g.ags} ${g.bufa_nr}`);
    }
    // The exclusions are the exception: most questions are answered locally exactly as by the service.
    console.info(`${by}: ${compared} of ${cases.length} compared body for body`);
    expect(compared).toBeGreaterThan(by === 'ags' ? 900 : 700);
  });
});

describe('divided cities (docs/data.md, rule 12)', () => {
  it('name and narrow by every part of every divided city as the service does, also for a name none has', async () => {
    const divided = dir.municipalities.filter((m) => m.teile !== undefined);
    expect(divided.length).toBeGreaterThan(0);
    for (const m of divided) {
      const names = [...new Set(m.teile!.flatMap((units) => (units ?? []).map((u) => u.name))), 'Neustadt', 'suelz'];
      for (const stadtteil of [undefined, ...names]) {
        const options: LookupOptions = { gemeinden: stadtteil === 'Neustadt', ...(stadtteil === undefined ? {} : { stadtteil }) };
        const params = new URLSearchParams({ ags: m.ags, ...(stadtteil === undefined ? {} : { stadtteil }), gemeinden: options.gemeinden ? '1' : '0' });
        const res = await service.get(`/finanzamt?${params}`);
        expect(local.byAgs(m.ags, options), `${m.name} ${stadtteil}`).toEqual(res.parsed(LookupResponse));
      }
    }
  });
});

describe('offices and districts', () => {
  it('every office, with and without its district, and every district, as the service answers them', async () => {
    for (const { bufa_nr } of dir.offices) {
      expect(local.office(bufa_nr)).toEqual((await service.get(`/finanzamt/${bufa_nr}`)).parsed(OfficeResponse));
      expect(local.district(bufa_nr)).toEqual((await service.get(`/finanzamt/${bufa_nr}/bezirk`)).parsed(DistrictResponse));
    }
    for (const { bufa_nr } of dir.offices.filter((_, i) => i % 20 === 0)) {
      expect(local.office(bufa_nr, { gemeinden: true })).toEqual((await service.get(`/finanzamt/${bufa_nr}?gemeinden=1`)).parsed(OfficeResponse));
    }
  });

  it('rejects what the service rejects, with its status and words', async () => {
    for (const [call, path] of [[() => local.byAgs('05x'), '/finanzamt?ags=05x'], [() => local.district('9999'), '/finanzamt/9999/bezirk'], [() => local.byPlz('123'), '/finanzamt?plz=123']] as const) {
      const res = await service.get(path);
      expect(call).toThrow(FinanzamtApiError);
      expect(() => call()).toThrow(expect.objectContaining({ status: res.status, code: res.parsed(ErrorResponse).code, detail: res.parsed(ErrorResponse).detail }));
    }
  });
});

describe('the data version', () => {
  it('takes stand from the body and stand_quelle from the ETag fixed by the specification', () => {
    expect(local.stand).toBe(tree.manifest.stand);
    expect(local.standQuelle).toBe(tree.manifest.stand_quelle);
  });

  it('revalidates on refresh: 304, nothing reloaded', async () => {
    expect(await local.refresh()).toBe(false);
    await eventually('the 304 in the access log', async () =>
      service.proxy.logLines().some((l) => l.question === '/finanzaemter?gemeinden=1' && l.status === 304));
  });
});
