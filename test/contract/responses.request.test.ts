// Every response the description documents, provoked from the real proxy over HTTP and checked against the
// description that proxy serves (test/support/contract.ts); at the end, no documented response is left that
// was never seen, so the description describes nothing the service does not do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionResponse, ErrorResponse, LookupResponse } from '../../core/model.ts';
import { callerOfSharedProxy, startCallerProxy, type CallerProxy, type OwnCallerProxy } from '../support/callerProxy.ts';
import { scratchDir } from '../support/proxy.ts';
import { untilRefused, type RawResponse } from '../support/http.ts';

let main: CallerProxy;
let limited: OwnCallerProxy;
let unloaded: OwnCallerProxy;
/** Over the tree of September 2026, whose sources know retired municipality keys and office numbers. */
let main2026: CallerProxy;

beforeAll(async () => {
  main = await callerOfSharedProxy('responses');
  [limited, unloaded, main2026] = await Promise.all([
    startCallerProxy({ args: ['--rate', '1', '--burst', '1'], contract: main.proxy.contract }),
    startCallerProxy({ dist: scratchDir('finanzamt-empty-'), contract: main.proxy.contract }),
    callerOfSharedProxy('responses', { tree: '2026', contract: main.proxy.contract }),
  ]);
});

afterAll(async () => {
  await Promise.all([limited?.stop(), unloaded?.stop()]);
});

const DATA_PATHS = ['/finanzamt?ags=05315000', '/finanzamt/2115', '/finanzamt/2115/bezirk', '/finanzaemter'];
const PUBLIC_PATHS = ['/openapi.json', '/docs'];
const NO_ENCODING = { 'accept-encoding': 'identity;q=0, *;q=0' };

type Get = (path: string, headers?: Record<string, string>, method?: string) => Promise<RawResponse>;

/** The status of a GET, after checking that HEAD answers it the same (both are checked against their operations). */
async function bothStatus(get: Get, path: string, headers: Record<string, string> = {}): Promise<number> {
  const [res, head] = [await get(path, headers), await get(path, headers, 'HEAD')];
  expect(head.status, `HEAD ${path}`).toBe(res.status);
  return res.status;
}

describe('answers', () => {
  it.each([
    '/finanzamt?ags=05315000', '/finanzamt?ags=05315000&gemeinden=1&limit=1', '/finanzamt?ags=0', '/finanzamt?plz=50667',
    '/finanzamt?plz=10115&gemeinden=1', '/finanzamt?ort=K%C3%B6ln', '/finanzamt?ort=Koeln&limit=200', '/finanzamt?ags=99999999',
    '/finanzamt?ags=03452501', '/finanzamt?ags=13000999', '/finanzamt/2115', '/finanzamt/2115?gemeinden=1',
    '/finanzamt/2115/bezirk', '/finanzaemter', '/finanzaemter?gemeinden=1', '/finanzaemter?bundesland=sachs&limit=5&offset=2',
    '/finanzaemter?ohne_bezirk=1&name=m%C3%BCnchen', '/finanzaemter?offset=1000', '/finanzamt?steuernummer=9181081508155',
    '/finanzamt?steuernummer=21%2F815%2F08150&gemeinden=1', '/finanzamt?steuernummer=2202081508156',
  ])('GET %s is 200 and as described, compressed or not', async (path) => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await main.get(path, { 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    }
  });

  it('answers the offices without a district and the unpopulated areas as described (null members)', async () => {
    const withoutOffice = (await main.get('/finanzamt?ags=03452501')).parsed(LookupResponse);
    expect(withoutOffice.gemeinden[0]!.bufa_nr).toBeNull();
    const withoutKreis = (await main.get('/finanzamt?ags=13000999')).parsed(LookupResponse);
    expect(withoutKreis.gemeinden[0]!.kreis).toBeNull();
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS, '/finanzamt?steuernummer=9181081508155'])('HEAD %s, and 304 for its ETag', async (path) => {
    const head = await main.get(path, {}, 'HEAD');
    expect(head.status).toBe(200);
    const etag = head.headers.etag as string;
    expect(await bothStatus(main.get, path, { 'if-none-match': etag })).toBe(304);
    expect(await bothStatus(main.get, path, { 'if-none-match': 'W/"19990101_0000-older"' })).toBe(200);
  });

  it('the health check needs no key', async () => {
    expect(await bothStatus(main.proxy.get, '/healthz')).toBe(200);
  });
});

describe('retired municipality keys and office numbers (September 2026)', () => {
  it.each([
    ['06435014', 'Hanau\'s until 2026, one successor', ['06415000']],
    ['09479453', 'split in two', ['09479127', '09479159']],
    ['14178200', 'no known current successor', []],
  ])('GET /finanzamt?ags=%s (%s) is 200 as described, with ags_nachfolger', async (ags, _what, successors) => {
    const res = await main2026.get(`/finanzamt?ags=${ags}`);
    expect(await bothStatus(main2026.get, `/finanzamt?ags=${ags}`)).toBe(200);
    const body = res.parsed(LookupResponse);
    expect(body.frage.ags).toBe(ags);
    expect(body.ags_nachfolger?.map((s) => s.ags)).toEqual(successors);
    expect(body.gemeinden.map((m) => m.ags).filter((a, i, all) => all.indexOf(a) === i)).toEqual(successors);
    expect(body.anzahl_aemter > 0).toBe(successors.length > 0);
    expect(body.hinweis).toContain(`Gemeindeschlüssel ${ags}`);
  });

  it('answers a current key with ags_nachfolger null', async () => {
    expect((await main2026.get('/finanzamt?ags=06415000')).parsed(LookupResponse).ags_nachfolger).toBeNull();
  });

  it.each(['/finanzamt/2612', '/finanzamt/2612/bezirk'])('%s, a number that no longer exists, is 404 as described, naming its successor', async (path) => {
    expect(await bothStatus(main2026.get, path)).toBe(404);
    expect((await main2026.get(path)).parsed(ErrorResponse)).toMatchObject({ code: 'not_found', detail: expect.stringContaining('2614') });
  });

  it('carries both tables in the full collection only, as described', async () => {
    const full = (await main2026.get('/finanzaemter?gemeinden=1&limit=1')).parsed(CollectionResponse);
    expect(full.ersetzte_schluessel).toContainEqual({ ags: '06435014', name: 'Hanau, Brüder-Grimm-Stadt', nachfolger: [{ ags: '06415000', name: 'Hanau, Brüder-Grimm-Stadt', gilt_ab: '2026-01-01' }], vollstaendig: true });
    expect(full.ersetzte_amtsnummern).toContainEqual({ bufa_nr: '2612', name: 'Frankfurt am Main', nachfolger: ['2614'] });
    const plain = (await main2026.get('/finanzaemter?limit=1')).parsed(CollectionResponse);
    expect('ersetzte_schluessel' in plain || 'ersetzte_amtsnummern' in plain).toBe(false);
  });
});

describe('errors', () => {
  it.each([
    '/finanzamt', '/finanzamt?ags=0531500x', '/finanzamt?ags=05315000&plz=50667', '/finanzamt?plz=5066', '/finanzamt?ort=ab',
    '/finanzamt?ags=05315000&limit=201', '/finanzamt?ags=05315000&gemeinden=2', '/finanzamt?ags=1&ags=2', '/finanzamt?ags=1&foo=1',
    '/finanzamt/21x5', '/finanzamt/21155/bezirk', '/finanzamt/2115?limit=1', '/finanzaemter?limit=601', '/finanzaemter?bundesland=',
    '/finanzaemter?ohne_bezirk=yes', '/finanzamt?steuernummer=12%2F345', '/finanzamt?steuernummer=9181081508156',
    '/finanzamt?ags=05315000&steuernummer=9181081508155', '/finanzamt?steuernummer=9181081508155&gemeinden=2',
  ])('GET %s is 400', async (path) => {
    expect(await bothStatus(main.get, path)).toBe(400);
  });

  it.each(DATA_PATHS)('%s: a key in the query is 400 even with a valid header', async (path) => {
    expect(await bothStatus(main.get, `${path}${path.includes('?') ? '&' : '?'}api_key=${main.key}`)).toBe(400);
  });

  it.each(DATA_PATHS)('%s: the key in both headers is 400', async (path) => {
    expect(await bothStatus(main.get, path, { authorization: `Bearer ${main.key}` })).toBe(400);
  });

  it.each(DATA_PATHS)('%s: no key, an unknown key or another scheme is 401; a blocked key 403; Bearer works', async (path) => {
    expect(await bothStatus(main.proxy.get, path)).toBe(401);
    expect(await bothStatus(main.proxy.get, path, { 'x-api-key': 'not-a-key' })).toBe(401);
    expect(await bothStatus(main.proxy.get, path, { authorization: `Basic ${main.key}` })).toBe(401);
    expect(await bothStatus(main.proxy.get, path, { 'x-api-key': main.blockedKey })).toBe(403);
    expect(await bothStatus(main.proxy.get, path, { authorization: `Bearer ${main.key}` })).toBe(200);
  });

  it.each(['/finanzamt/9999', '/finanzamt/9999/bezirk', '/finanzamt/9999?gemeinden=1'])('%s: an unknown office is 404', async (path) => {
    expect(await bothStatus(main.get, path)).toBe(404);
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS, '/healthz'])('%s: DELETE is 405, and POST except on /finanzamt', async (path) => {
    const methods = path.startsWith('/finanzamt?') ? ['DELETE', 'PUT'] : ['POST', 'DELETE'];
    for (const method of methods) expect((await main.get(path, {}, method)).status).toBe(405);
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS])('%s: no acceptable encoding is 406', async (path) => {
    expect(await bothStatus(main.get, path, NO_ENCODING)).toBe(406);
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS])('%s: an If-Match other than * is 412', async (path) => {
    const etag = (await main.get(path)).headers.etag as string;
    expect(await bothStatus(main.get, path, { 'if-match': etag })).toBe(412);
    expect(await bothStatus(main.get, path, { 'if-match': '*' })).toBe(200);
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS, '/healthz'])('%s: OPTIONS is the preflight, 204 without a key', async (path) => {
    expect((await main.proxy.get(path, {}, 'OPTIONS')).status).toBe(204);
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS, '/healthz'])('%s: over the rate limit is 429 with Retry-After, HEAD and preflights too', async (path) => {
    const res = await untilRefused(() => limited.get(path));
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await untilRefused(() => limited.get(path, {}, 'HEAD'))).status).toBe(429);
    expect((await untilRefused(() => limited.proxy.get(path, {}, 'OPTIONS'))).status).toBe(429);
  });

  it.each([...DATA_PATHS, ...PUBLIC_PATHS, '/healthz'])('%s: without a loaded version is 503', async (path) => {
    expect(await bothStatus(unloaded.get, path)).toBe(503);
  });

  it('paths outside the description: 401 without a key, 404 with one; OPTIONS is the preflight', async () => {
    expect(await bothStatus(main.proxy.get, '/nope')).toBe(401);
    expect(await bothStatus(main.get, '/nope')).toBe(404);
    expect(await bothStatus(main.get, '/docs/nope.js')).toBe(404);
    expect((await main.proxy.get('/finanzamt?ags=1', {}, 'OPTIONS')).status).toBe(204);
  });
});

describe('batches (POST /finanzamt)', () => {
  const BATCH = JSON.stringify({ fragen: [{ ags: '05315000' }, { plz: '50667', gemeinden: 1 }, { ort: 'Köln', limit: 5 }, { ags: '0531500x' }] });

  it('answers 200 as described, compressed or not', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await main.post('/finanzamt', BATCH, { 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    }
  });

  it.each([
    ['not JSON', '{"fragen": [', 'bad_json'],
    ['not a batch', '{"fragen": {"ags": "05315000"}}', 'bad_batch'],
    ['a question that is not flat', '{"fragen": [{"ags": ["05315000"]}]}', 'bad_batch'],
    ['no question', '{"fragen": []}', 'bad_batch'],
    ['101 questions', JSON.stringify({ fragen: Array.from({ length: 101 }, () => ({ ags: '05315000' })) }), 'batch_too_large'],
  ])('refuses %s with 400', async (_what, body, code) => {
    const res = await main.post('/finanzamt', body);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).code).toBe(code);
  });

  it('refuses the key in the query or in both headers (400), none or an unknown one (401), a blocked one (403)', async () => {
    expect((await main.post(`/finanzamt?api_key=${main.key}`, BATCH)).status).toBe(400);
    expect((await main.post('/finanzamt', BATCH, { authorization: `Bearer ${main.key}` })).status).toBe(400);
    expect((await main.proxy.post('/finanzamt', BATCH)).status).toBe(401);
    expect((await main.proxy.post('/finanzamt', BATCH, { 'x-api-key': 'not-a-key' })).status).toBe(401);
    expect((await main.proxy.post('/finanzamt', BATCH, { 'x-api-key': main.blockedKey })).status).toBe(403);
  });

  it('refuses no acceptable encoding (406), a body too large (413), one that is not JSON (415)', async () => {
    expect((await main.post('/finanzamt', BATCH, NO_ENCODING)).status).toBe(406);
    expect((await main.post('/finanzamt', ' '.repeat(64 * 1024 + 1))).status).toBe(413);
    expect((await main.post('/finanzamt', BATCH, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('is refused over the rate limit (429) and without a loaded version (503)', async () => {
    const one = JSON.stringify({ fragen: [{ ags: '05315000' }] });
    const res = await untilRefused(() => limited.post('/finanzamt', one));
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await unloaded.post('/finanzamt', one)).status).toBe(503);
  });
});

describe('the description', () => {
  // Runs last (vitest keeps the order of a file's tests): by now every case above has been checked.
  it('documents no response that the tests above did not receive from the proxy', () => {
    const { contract } = main.proxy;
    const unseen = contract.documented().filter((k) => !contract.seen.has(k));
    expect(unseen).toEqual([]);
  });
});
