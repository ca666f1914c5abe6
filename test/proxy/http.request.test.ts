// HTTP semantics of section 4.5 through the real proxy: conditional requests, HEAD, content-coding
// negotiation over the stored encodings, cache and CORS headers, preflight.
import { describe, expect, it } from 'vitest';
import { decompressSync } from '../../core/compress.ts';
import type { Encoding } from '../../core/manifest.ts';
import { ErrorResponse } from '../../core/model.ts';
import { parseResponses, rawRequest } from '../reliability/rawHttp.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const running = sharedProxyForFile('http');

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => running.proxy.get(path, { 'x-api-key': running.key, ...headers }, method);

// A district: offered as JSON and as tables, so its answers vary by Accept as well as by Accept-Encoding.
const KEY = '/finanzamt/2115/bezirk';
const VARY = 'Accept, Accept-Encoding';
const etag = () => tree.manifest.entries[KEY]!.etag;

describe('conditional requests', () => {
  it('answers 304 without a body for the current ETag, in every form If-None-Match allows', async () => {
    const strong = etag().replace(/^W\//, '');
    for (const value of [etag(), strong, `"other", ${etag()}`, `W/"a",${strong}`, '*']) {
      const res = await get(KEY, { 'if-none-match': value });
      expect(res.status, value).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(etag());
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.headers.vary).toBe(VARY);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers 200 with the body for an older or different ETag', async () => {
    const old = `W/"20000101_0000-${etag().slice(-23)}`;
    for (const value of [old, 'W/"nothing"', '"a", "b"']) {
      const res = await get(KEY, { 'if-none-match': value });
      expect(res.status, value).toBe(200);
      expect(res.body.equals(tree.file(KEY))).toBe(true);
    }
  });

  it('answers 304 also when the request says Cache-Control: no-cache, as fetch sends it with If-None-Match', async () => {
    const res = await get(KEY, { 'if-none-match': etag(), 'cache-control': 'no-cache' });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
  });

  it('answers 304 for a rendered answer too', async () => {
    const first = await get('/finanzaemter?limit=3');
    const res = await get('/finanzaemter?limit=3', { 'if-none-match': first.headers.etag! });
    expect(res.status).toBe(304);
  });
});

describe('HEAD', () => {
  it('returns the headers of GET, with its Content-Length, and no body', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const got = await get(KEY, { 'accept-encoding': encoding });
      const head = await get(KEY, { 'accept-encoding': encoding }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe(String(got.body.length));
      for (const name of ['etag', 'content-type', 'content-encoding', 'cache-control', 'vary']) expect(head.headers[name], name).toBe(got.headers[name]);
    }
    const rendered = await get('/finanzaemter?limit=2', {}, 'HEAD');
    expect(rendered.status).toBe(200);
    expect(Number(rendered.headers['content-length'])).toBe((await get('/finanzaemter?limit=2')).body.length);
    const missing = await get('/finanzamt/9999', {}, 'HEAD');
    expect(missing.status).toBe(404);
    expect(missing.body.length).toBe(0);
  });
});

describe('content coding', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'identity'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['identity', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.1, gzip;q=0.9', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['gzip, identity;q=0', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
  ];
  it.each(cases)('Accept-Encoding %s gets %s', async (accept, expected) => {
    const res = await get(KEY, accept === undefined ? {} : { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(expected === 'identity' ? undefined : expected);
    expect(res.headers.vary).toBe(VARY);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.body.equals(tree.file(KEY, expected as 'br' | 'gzip' | 'identity'))).toBe(true);
    expect(decompressSync(res.body, expected as Encoding).equals(tree.file(KEY))).toBe(true);
    expect(res.headers.etag).toBe(etag());
  });

  it('answers 406 when every stored encoding is refused', async () => {
    for (const accept of ['identity;q=0', '*;q=0']) {
      const res = await get(KEY, { 'accept-encoding': accept });
      expect(res.status, accept).toBe(406);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.parsed(ErrorResponse).code).toBe('not_acceptable');
    }
  });

  it('compresses rendered answers the same way', async () => {
    const plain = await get('/finanzamt?ags=0&limit=50');
    for (const accept of ['br', 'gzip'] as const) {
      const res = await get('/finanzamt?ags=0&limit=50', { 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBe(accept);
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(decompressSync(res.body, accept).equals(plain.body)).toBe(true);
      expect(res.body.length).toBeLessThan(plain.body.length);
    }
  });
});

describe('cache and CORS headers', () => {
  it('marks what depends only on the URL and the version cacheable for an hour, what depends on the caller not, and allows every origin on both', async () => {
    const etag = (await get(KEY)).headers.etag as string;
    for (const [path, headers, status, cache] of [
      [KEY, {}, 200, 'public, max-age=3600'], [KEY, { 'if-none-match': etag }, 304, 'public, max-age=3600'],
      ['/finanzamt/9999', {}, 404, 'public, max-age=3600'], ['/finanzamt?ags=x', {}, 400, 'public, max-age=3600'],
      ['/nope', {}, 404, 'public, max-age=3600'], [KEY, { 'if-match': etag }, 412, 'no-store'],
      [KEY, { 'accept-encoding': 'identity;q=0' }, 406, 'no-store'],
    ] as const) {
      const res = await get(path, headers);
      expect(res.status).toBe(status);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toMatch(/ETag.*RateLimit-Remaining/);
      expect(res.headers['cache-control'], `${path} ${status}`).toBe(cache);
    }
    for (const headers of [{}, { 'x-api-key': 'fa_unknown' }] as Record<string, string>[]) {
      const unauthorized = await running.proxy.get(KEY, headers);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers['cache-control']).toBe('no-store');
      expect(unauthorized.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers If-Match as RFC 9110 says for weak ETags: only * passes, anything else is 412 with a detail and code', async () => {
    const etag = (await get(KEY)).headers.etag as string;
    for (const method of ['GET', 'HEAD']) {
      for (const ifMatch of [etag, etag.slice(2), '"x"', `"x", ${etag}`]) {
        const res = await running.proxy.get(KEY, { 'x-api-key': running.key, 'if-match': ifMatch }, method);
        expect(res.status, `${method} If-Match: ${ifMatch}`).toBe(412);
        if (method === 'GET') expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.stringContaining('If-Match'), code: 'precondition_failed', stand: tree.manifest.stand });
      }
      const star = await running.proxy.get(KEY, { 'x-api-key': running.key, 'if-match': '*' }, method);
      expect(star.status).toBe(200);
    }
    // If-Match is evaluated first (RFC 9110 13.2.2): a current If-None-Match does not turn it into 304.
    expect((await get(KEY, { 'if-match': '"x"', 'if-none-match': etag })).status).toBe(412);
    expect((await get(KEY, { 'if-match': '*', 'if-none-match': etag })).status).toBe(304);
    // The description served by the proxy follows the same rules.
    expect((await running.proxy.get('/openapi.json', { 'if-match': '"x"' })).status).toBe(412);
  });

  it('answers a preflight with 204 and no key, on any path', async () => {
    for (const path of [KEY, '/finanzaemter', '/unknown', '/finanzamt?ags=01001000']) {
      const res = await running.proxy.get(path, { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' }, 'OPTIONS');
      expect(res.status).toBe(204);
      expect(res.body.length).toBe(0);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      // A batch (POST) is asked on the lookup's path only.
      expect(res.headers['access-control-allow-methods']).toBe(path.startsWith('/finanzamt?') ? 'GET, HEAD, POST, OPTIONS' : 'GET, HEAD, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toBe('X-API-Key, Authorization, If-None-Match, If-Match, Content-Type');
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    }
  });
});

describe('one connection', () => {
  it('answers requests sent back to back on one connection, each in its turn', async () => {
    // Responses are finished together at the end of an event-loop turn (proxy/http/finishTogether.ts); requests
    // that arrive in one read must still be answered in the order they were asked.
    const paths = ['/finanzamt/2115', KEY, '/finanzamt?ags=01001000', '/finanzamt/9999', '/finanzamt/2115'];
    const head = paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${running.key}\r\n`
      + `${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('');
    const answers = parseResponses((await rawRequest(running.proxy.url, head)).raw);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 200]);
    for (const [i, path] of paths.entries()) {
      if (answers[i]!.status === 200) expect(answers[i]!.body.equals(tree.file(path)), path).toBe(true);
    }
  });

  it('answers the requests before one that is not HTTP, then refuses that one with 400 and a detail, and closes', async () => {
    const good = [KEY, '/finanzamt/2115'].map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${running.key}\r\n\r\n`).join('');
    const answer = await rawRequest(running.proxy.url, `${good}GET /\u0001 HTTP/9.9\r\n\r\n`);
    const answers = parseResponses(answer.raw);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);
    expect(answers[0]!.body.equals(tree.file(KEY))).toBe(true);
    expect(answers[1]!.body.equals(tree.file('/finanzamt/2115'))).toBe(true);
    expect(answers[2]!.headers.connection).toBe('close');
    expect(JSON.parse(answers[2]!.body.toString('utf8'))).toEqual({ detail: expect.any(String), code: 'bad_request' });
  });
});
