// The endpoints of section 4 through the real proxy over HTTP, against the real built tree: facts, every
// parameter rule, and the status table of section 7.
import { describe, expect, it } from 'vitest';
import { etagFor } from '../../core/etag.ts';
import { CollectionResponse, DistrictResponse, ErrorResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import { canonicalKey, parseQuestion } from '../../core/request.ts';
import { HealthResponse } from '../../core/health.ts';
import { eventually } from '../support/http.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const running = sharedProxyForFile('api');

const get = (path: string, headers: Record<string, string> = {}) => running.proxy.get(path, { 'x-api-key': running.key, ...headers });

/** The ETag a rendered (not stored) answer must carry: the build's rule applied to the body. */
function dynamicEtag(path: string, body: Buffer): string {
  const url = new URL(path, 'http://x');
  const parsed = parseQuestion(url.pathname, url.searchParams);
  if (!parsed.ok) throw new Error(parsed.detail);
  return etagFor(tree.manifest.stand_quelle, canonicalKey(parsed.question), body);
}

describe('GET /finanzamt (lookup by residence)', () => {
  it('finds exactly one office for Flensburg by ags, with the stored body and ETag', async () => {
    const res = await get('/finanzamt?ags=01001000');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.parsed(LookupResponse);
    expect(body).toMatchObject({
      stand: tree.manifest.stand, stand_quelle: tree.manifest.stand_quelle, frage: { ags: '01001000' },
      eindeutig: true, anzahl_aemter: 1, hinweis: null,
    });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['2115']);
    expect(body.aemter[0]!.name).toBe('Flensburg');
    expect(res.body.equals(tree.file('/finanzamt?ags=01001000'))).toBe(true);
    expect(res.headers.etag).toBe(tree.manifest.entries['/finanzamt?ags=01001000']!.etag);
  });

  it.each([['05315000', 'Köln'], ['11000000', 'Berlin']])('lists several offices for %s (%s) and says why it cannot choose', async (ags, city) => {
    const body = (await get(`/finanzamt?ags=${ags}`)).parsed(LookupResponse);
    expect(body.eindeutig).toBe(false);
    expect(body.anzahl_aemter).toBeGreaterThan(1);
    expect(body.aemter).toHaveLength(body.anzahl_aemter);
    expect(body.hinweis).toEqual(expect.stringContaining(city));
    expect(body.gemeinden.every((g) => g.ags === ags)).toBe(true);
  });

  it('looks up by postal code and with the district of each office', async () => {
    const [plz] = tree.directory.plz[0]!;
    const byPlz = await get(`/finanzamt?plz=${plz}`);
    expect(byPlz.status).toBe(200);
    expect(byPlz.body.equals(tree.file(`/finanzamt?plz=${plz}`))).toBe(true);
    const withDistrict = (await get('/finanzamt?ags=01001000&gemeinden=1')).parsed(LookupResponse);
    expect(withDistrict.aemter[0]!.gemeinden).toHaveLength(withDistrict.aemter[0]!.anzahl_gemeinden);
  });

  it('answers a lookup without a hit with 200, no offices and a hint', async () => {
    for (const path of ['/finanzamt?ags=99', '/finanzamt?plz=00000', '/finanzamt?ort=Xyzzyqwv']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.parsed(LookupResponse), path).toMatchObject({ anzahl_aemter: 0, eindeutig: false, aemter: [], hinweis: expect.any(String) });
    }
  });

  it('suggests close names for a misspelt place, as a hint only: no hits, nothing counted', async () => {
    const res = await get('/finanzamt?ort=Muenchn');
    expect(res.status).toBe(200);
    const body = res.parsed(LookupResponse);
    expect(body).toMatchObject({ anzahl_aemter: 0, anzahl_gemeinden: 0, vollstaendig: true, aemter: [], gemeinden: [], aenderungen: [] });
    expect(body.hinweis).toMatch(/^Unter dem Namen „Muenchn“ ist keine Gemeinde bekannt\. Ähnlich geschriebene Orte: München\b/);
    // The same suggestions for software: each with the lookup that asks it and the offices that lookup names.
    const [spelling] = body.rueckfragen!;
    expect(spelling).toMatchObject({ art: 'schreibweise', parameter: 'ort', vollstaendig: false });
    expect(spelling!.optionen![0]).toMatchObject({ name: 'München', abfrage: { ort: 'München' } });
    const muenchen = (await get(`/finanzamt?ort=${encodeURIComponent('München')}`)).parsed(LookupResponse);
    expect(spelling!.optionen![0]!.bufa_nr).toEqual(muenchen.aemter.map((a) => a.bufa_nr));
    const nothing = (await get('/finanzamt?ort=Xyzzyqwv')).parsed(LookupResponse);
    expect(nothing).toMatchObject({ hinweis: 'Unter dem Namen „Xyzzyqwv“ ist keine Gemeinde bekannt.', rueckfragen: null });
  });

  it('lists the city first among its namesakes', async () => {
    for (const [ort, ags] of [['Halle', '15002000'], ['Oldenburg', '03403000'], ['Neustadt', '07316000'], ['Freiburg', '08311000']]) {
      expect((await get(`/finanzamt?ort=${ort}&limit=5`)).parsed(LookupResponse).gemeinden[0]?.ags, ort).toBe(ags);
    }
  });

  it('renders questions the build did not store, with the ETag rule of stored answers', async () => {
    const path = '/finanzamt?ags=05&limit=5';
    const res = await get(path);
    expect(res.status).toBe(200);
    const body = res.parsed(LookupResponse);
    expect(body.frage).toEqual({ ags: '05', gemeinden: 0, limit: 5 });
    expect(body.anzahl_gemeinden).toBe(5);
    expect(body.vollstaendig).toBe(false);
    expect(res.headers.etag).toBe(dynamicEtag(path, res.body));
    // Asked again, it is the same representation.
    const again = await get(path);
    expect(again.body.equals(res.body)).toBe(true);
    expect(again.headers.etag).toBe(res.headers.etag);
  });

  it('finds places by name through the place index, ignoring case and umlauts', async () => {
    for (const ort of ['Köln', 'koeln', 'KÖLN']) {
      const res = await get(`/finanzamt?ort=${encodeURIComponent(ort)}`);
      expect(res.status, ort).toBe(200);
      const body = res.parsed(LookupResponse);
      expect(body.frage.ort).toBe(ort);
      expect(body.gemeinden[0]!.ags, ort).toBe('05315000');
      expect(res.headers.etag).toBe(dynamicEtag(`/finanzamt?ort=${encodeURIComponent(ort)}`, res.body));
    }
  });
});

describe('GET /finanzamt/{amtsnummer} and /bezirk', () => {
  it('returns the office, and with gemeinden=1 its district', async () => {
    const plain = await get('/finanzamt/2115');
    expect(plain.status).toBe(200);
    expect(plain.parsed(OfficeResponse)).toMatchObject({ stand: tree.manifest.stand, amt: { bufa_nr: '2115', bezeichnung: 'Finanzamt Flensburg' } });
    expect(plain.body.equals(tree.file('/finanzamt/2115'))).toBe(true);
    const full = (await get('/finanzamt/2115?gemeinden=1')).parsed(OfficeResponse);
    expect(full.amt.gemeinden!.length).toBe(full.amt.anzahl_gemeinden);
    expect(full.amt.gemeinden!.some((g) => g.ags === '01001000')).toBe(true);
  });

  it('returns the district of an office', async () => {
    const body = (await get('/finanzamt/2115/bezirk')).parsed(DistrictResponse);
    expect(body).toMatchObject({ stand: tree.manifest.stand, bufa_nr: '2115', bezeichnung: 'Finanzamt Flensburg', ohne_bezirk: false });
    expect(body.anzahl).toBe(body.gemeinden.length);
    expect(Object.keys(body.gemeinden[0]!).sort()).toEqual(['ags', 'kreis', 'name', 'plz']);
  });

  it.each(['/finanzamt/9999', '/finanzamt/9999/bezirk', '/finanzamt/9999?gemeinden=1'])('answers 404 for the unknown office in %s', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.stringContaining('9999'), code: 'not_found', stand: tree.manifest.stand });
  });
});

describe('GET /finanzaemter', () => {
  it('returns every office, and with gemeinden=1 every district under the fixed ETag', async () => {
    const all = (await get('/finanzaemter')).parsed(CollectionResponse);
    expect(all).toMatchObject({ stand: tree.manifest.stand, vollstaendig: true, gesamt: tree.directory.offices.length, anzahl: tree.directory.offices.length });
    const full = await get('/finanzaemter?gemeinden=1');
    expect(full.headers.etag).toBe(`W/"${tree.manifest.stand_quelle}-mit_gemeinden"`);
    const body = full.parsed(CollectionResponse);
    expect(body.aemter.every((a) => a.gemeinden?.length === a.anzahl_gemeinden)).toBe(true);
    expect(body.anzahl_gemeinden).toBe(body.aemter.reduce((n: number, a: { anzahl_gemeinden: number }) => n + a.anzahl_gemeinden, 0));
  });

  it('serves a state named in any spelling from the stored answer of its exact name', async () => {
    const exact = '/finanzaemter?bundesland=Sachsen-Anhalt';
    for (const spelling of ['sachsen-anhalt', 'SACHSEN-ANHALT', 'Sachsen-Anhalt']) {
      const res = await get(`/finanzaemter?bundesland=${spelling}`);
      expect(res.status).toBe(200);
      expect(res.body.equals(tree.file(exact)), spelling).toBe(true);
      expect(res.headers.etag).toBe(tree.manifest.entries[exact]!.etag);
    }
    const thueringen = await get(`/finanzaemter?bundesland=${encodeURIComponent('thueringen')}`);
    expect(thueringen.body.equals(tree.file('/finanzaemter?bundesland=Th%C3%BCringen'))).toBe(true);
    // Rendering would give the same bytes; the access log shows the question was the stored one.
    await eventually('the requests to be logged', async () =>
      running.proxy.logLines().filter((l) => l.path === '/finanzaemter' && l.question === exact).length === 3);
  });

  it('filters by part of a state name, office name and ohne_bezirk, and pages with limit and offset', async () => {
    const sachs = (await get('/finanzaemter?bundesland=sachs')).parsed(CollectionResponse);
    expect(new Set(sachs.aemter.map((a) => a.bundesland))).toEqual(new Set(['Niedersachsen', 'Sachsen', 'Sachsen-Anhalt']));
    const koeln = (await get(`/finanzaemter?name=${encodeURIComponent('köln')}`)).parsed(CollectionResponse);
    expect(koeln.gesamt).toBeGreaterThan(1);
    expect(koeln.aemter.every((a) => a.name.includes('Köln'))).toBe(true);
    // "St" is the start of Stuttgart and Stade as much as short for Sankt; "St." and "Sankt" are one word.
    const st = (await get('/finanzaemter?name=St')).parsed(CollectionResponse).aemter.map((a) => a.name);
    expect(st).toEqual(expect.arrayContaining(['Stuttgart I', 'Stade', 'St. Wendel', 'Sankt Augustin']));
    for (const query of ['Sankt%20Wendel', 'St.%20Wendel', 'st%20wendel']) {
      expect((await get(`/finanzaemter?name=${query}`)).parsed(CollectionResponse).aemter.map((a) => a.name), query).toEqual(['St. Wendel']);
    }
    const special = (await get('/finanzaemter?ohne_bezirk=1')).parsed(CollectionResponse);
    const withoutDistrict = tree.directory.offices.filter((o) => o.ohne_bezirk).length;
    expect(withoutDistrict).toBeGreaterThan(0);
    expect(special.gesamt).toBe(withoutDistrict);
    expect(special.aemter.every((a) => a.ohne_bezirk)).toBe(true);
    const page = (await get('/finanzaemter?limit=10&offset=5')).parsed(CollectionResponse);
    expect(page).toMatchObject({ anzahl: 10, gesamt: tree.directory.offices.length, vollstaendig: false });
    expect(page.aemter[0]!.bufa_nr).toBe(tree.directory.offices[5]!.bufa_nr);
  });
});

describe('unusable input', () => {
  it.each([
    ['/finanzamt', 'Genau einer'],
    ['/finanzamt?ags=01001000&plz=24937', 'Nur einer'],
    ['/finanzamt?ags=abc', 'ags'],
    ['/finanzamt?ags=123456789', 'ags'],
    ['/finanzamt?ags=', 'ags'],
    ['/finanzamt?plz=1234', 'plz'],
    ['/finanzamt?plz=123456', 'plz'],
    ['/finanzamt?ort=ab', 'ort'],
    ['/finanzamt?ort=%C3%B6', 'ort'],
    ['/finanzamt?ort=%20%20%20', 'ort'],
    [`/finanzamt?ort=${'x'.repeat(101)}`, 'ort'],
    ['/finanzamt?ort=K%00ln', 'ort'],
    ['/finanzamt?ags=01001000&gemeinden=2', 'gemeinden'],
    ['/finanzamt?ags=01001000&limit=0', 'limit'],
    ['/finanzamt?ags=01001000&limit=201', 'limit'],
    ['/finanzamt?ags=01001000&limit=x', 'limit'],
    ['/finanzamt?ags=01001000&ags=01001000', 'nur einmal'],
    ['/finanzamt?ags=01001000&foo=1', 'foo'],
    ['/finanzamt/12', 'Amtsnummer'],
    ['/finanzamt/12345/bezirk', 'Amtsnummer'],
    ['/finanzamt/2115?gemeinden=yes', 'gemeinden'],
    ['/finanzamt/2115/bezirk?gemeinden=1', 'gemeinden'],
    ['/finanzaemter?limit=601', 'limit'],
    ['/finanzaemter?limit=-1', 'limit'],
    ['/finanzaemter?offset=x', 'offset'],
    ['/finanzaemter?ohne_bezirk=2', 'ohne_bezirk'],
    ['/finanzaemter?bundesland=', 'bundesland'],
    [`/finanzaemter?name=${'y'.repeat(101)}`, 'name'],
    ['/finanzamt?ort=%C3%96l', '"Öl", 2 Zeichen'], // two characters sent, though searched as "oel"
    ['/finanzamt?ort=%20ab%20', '2 Zeichen'],
  ])('answers 400 bad_parameter with a detail naming the parameter for %s, cacheable like an answer', async (path, mentions) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const body = res.parsed(ErrorResponse);
    expect(body).toEqual({ detail: expect.stringContaining(mentions), code: 'bad_parameter', stand: tree.manifest.stand });
  });

  it.each(['/', '/finanzamt/2115/bezirk/x', '/finanzaemter/2115', '/FINANZAMT', '/finanzamt.json', '/healthz/x'])('answers 404 for the unknown path %s', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.any(String), code: 'not_found', stand: tree.manifest.stand });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers 405 with Allow for %s', async (method) => {
    // POST on /finanzamt is a batch (test/proxy/batch.request.test.ts).
    const res = await running.proxy.get('/finanzamt/2115', { 'x-api-key': running.key }, method);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.parsed(ErrorResponse)).toMatchObject({ detail: expect.stringContaining(method), code: 'method_not_allowed' });
  });
});

describe('/healthz', () => {
  it('reports the loaded version without a key', async () => {
    const res = await running.proxy.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.parsed(HealthResponse)).toMatchObject({ status: 'ok', stand: tree.manifest.stand, stand_quelle: tree.manifest.stand_quelle, build_id: expect.any(String), ortssuche: true });
    // Rule 10: the notices of the version (data/notices.json: Mittelfranken from 1.1.2026, GVBl. 2025 S. 586).
    expect(res.parsed(HealthResponse).aenderungen).toEqual(tree.directory.aenderungen.map(({ id, titel, gilt_ab, quelle }) => ({ id, titel, gilt_ab, quelle })));
    expect(res.parsed(HealthResponse).aenderungen.map((a) => a.id)).toEqual(['mittelfranken-2026']);
  });
});

describe('hints of an ort search (rule 5)', () => {
  it('speaks of every place found when München also finds Münchenbernsdorf, counting offices, not numbers', async () => {
    const res = await get(`/finanzamt?ort=${encodeURIComponent('München')}`);
    expect(res.status).toBe(200);
    const body = res.parsed(LookupResponse);
    const names = [...new Set(body.gemeinden.map((g) => g.name.split(',')[0]))];
    expect(names).toEqual(expect.arrayContaining(['München', 'Münchenbernsdorf']));
    expect(body.hinweis).toContain(`Gefunden wurden ${body.anzahl_gemeinden} Gemeinden (`);
    // The hint names the first five places found and counts the rest.
    for (const name of names.slice(0, 5)) expect(body.hinweis).toContain(name as string);
    if (names.length > 5) expect(body.hinweis).toContain(`und ${body.anzahl_gemeinden - 5} weitere`);
    // München's ten numbers are two offices (same name and address, evidence: the office list).
    expect(body.hinweis).toContain('10 Amtsnummern eingetragen, die zu 2 Finanzämtern gehören');
    expect(body.hinweis).toMatch(new RegExp(`gehören zu ${body.anzahl_aemter - 8} verschiedenen Finanzämtern mit ${body.anzahl_aemter} Amtsnummern`));
  });
});
