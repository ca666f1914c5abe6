// The description itself: a valid OpenAPI 3.1 document by a real linter, served by the proxy as generated,
// and a contract check (test/support/contract.ts) that does catch what breaks it.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../proxy/docs/openapi/document.ts';
import { startCallerProxy, type CallerProxy } from '../support/callerProxy.ts';
import { Contract } from '../support/contract.ts';
import type { RawResponse } from '../support/http.ts';

let service: CallerProxy;

beforeAll(async () => {
  service = await startCallerProxy();
});

afterAll(async () => {
  await service?.proxy.stop();
});

describe('the OpenAPI document', () => {
  it('passes Redocly\'s strictest built-in ruleset without a single problem', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('is served without a key, as generated, with ETag, caching and 304', async () => {
    const res = await service.proxy.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect((await service.proxy.get('/openapi.json', { 'if-none-match': res.headers.etag as string })).status).toBe(304);
  });

  it('describes both key schemes and all four data paths with their parameters', () => {
    const doc = openApiDocument();
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, Bearer: { type: 'http', scheme: 'bearer' },
    });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/finanzamt', '/finanzamt/{amtsnummer}', '/finanzamt/{amtsnummer}/bezirk', '/finanzaemter', '/healthz']));
  });
});

describe('the contract check', () => {
  const contract = new Contract(JSON.parse(JSON.stringify(openApiDocument())));
  const HEADERS = {
    'access-control-allow-origin': '*', 'ratelimit-limit': '40', 'ratelimit-remaining': '39', 'ratelimit-reset': '1',
    etag: 'W/"20251130_0000-AAAAAAAAAAAAAAAAAAAAAA"', 'cache-control': 'public, max-age=3600', vary: 'Accept-Encoding',
    'content-type': 'application/json; charset=utf-8', 'content-length': '2',
  };
  const district = { stand: '30.11.2025', bufa_nr: '2115', bezeichnung: 'Finanzamt Flensburg', bundesland: 'Schleswig-Holstein', ohne_bezirk: false, anzahl: 0, gemeinden: [] };
  const response = (status: number, body: unknown, headers: Record<string, string> = HEADERS): RawResponse => {
    const text = JSON.stringify(body);
    return { status, headers, body: Buffer.from(text), text, json: () => body };
  };

  it('accepts a response as described', () => {
    expect(() => contract.check('GET', '/finanzamt/2115/bezirk', response(200, district))).not.toThrow();
  });

  it.each([
    ['an undescribed member', response(200, { ...district, extra: 1 }), /additional/],
    ['a missing member', response(200, { ...district, anzahl: undefined }), /anzahl/],
    ['a malformed ETag', response(200, district, { ...HEADERS, etag: '"x"' }), /ETag/],
    ['a missing rate-limit header', response(200, district, { ...HEADERS, 'ratelimit-limit': undefined! }), /RateLimit-Limit is missing/],
    ['an undocumented status', response(418, district), /418 is not documented/],
    ['an error without detail', response(404, { message: 'x' }, { ...HEADERS, 'cache-control': 'no-store' }), /detail/],
  ])('rejects %s', (_what, res, message) => {
    expect(() => contract.check('GET', '/finanzamt/2115/bezirk', res)).toThrow(message);
  });
});
