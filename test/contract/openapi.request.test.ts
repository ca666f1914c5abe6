// The description itself: a valid OpenAPI 3.1 document by a real linter, served by the proxy as generated,
// and a contract check (test/support/contract.ts) that does catch what breaks it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dividedCities } from '../../build/openapi/divided.ts';
import { openApiDocument } from '../../build/openapi/document.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { EXAMPLE_PATHS, EXAMPLE_RETIRED_KEY, EXAMPLE_RETIRED_OFFICE } from '../../build/openapi/examples.ts';
import { ERROR_CODES } from '../../core/errors.ts';
import { BatchResponse, ErrorResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import type { Response } from '../../build/openapi/responses.ts';
import { EXPOSE } from '../../core/headers.ts';
import { HealthResponse } from '../../core/health.ts';
import { makeManifest, MANIFEST_FILE, type Manifest } from '../../core/manifest.ts';
import { LookupParameters } from '../../core/parameters.ts';
import { DOCUMENTS } from '../../core/routes.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { Contract, OpenApiDocument } from '../support/contract.ts';
import { rawResponse, request, type RawResponse } from '../support/http.ts';
import { realDirectory } from '../support/directory.ts';
import { testTree } from '../support/tree.ts';

let service: CallerProxy;
/** Over the tree of September 2026, whose sources know retired municipality keys and office numbers. */
let service2026: CallerProxy;

beforeAll(async () => {
  [service, service2026] = await Promise.all([callerOfSharedProxy('openapi'), callerOfSharedProxy('openapi', { tree: '2026' })]);
});

/** The JSON media of a response written out in place (the 200s of the paths and the shared responses are). */
function jsonMedia(response: Response | { $ref: string } | undefined) {
  if (response === undefined || '$ref' in response) throw new Error('a response written out in place was expected');
  const media = response.content?.['application/json'];
  if (media === undefined) throw new Error('a JSON response was expected');
  return media;
}

/** The example of an answer: the lookup shows its examples by name, the other answers one each. */
function answerExample(media: ReturnType<typeof jsonMedia>, id: string): unknown {
  return id === 'lookup' ? media.examples?.lookup?.value : media.example;
}

/** `response` with its `$ref` to a shared response of `doc` followed. */
function inline(doc: ReturnType<typeof openApiDocument>, response: Response | { $ref: string }): Response {
  if (!('$ref' in response)) return response;
  const shared = Object.entries(doc.components.responses).find(([id]) => response.$ref === `#/components/responses/${id}`);
  if (shared === undefined) throw new Error(`${response.$ref} is not a shared response`);
  return shared[1];
}

/**
 * The build id of a version's answers alone: its manifest without the documents (core/routes.ts, DOCUMENTS). Read
 * as written, not through its schema, which would give each stored object's encodings in another order.
 */
function answersId(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, MANIFEST_FILE), 'utf8')) as Manifest;
  const entries = Object.fromEntries(Object.entries(manifest.entries).filter(([key]) => !(key in DOCUMENTS)));
  const used = new Set([...Object.values(entries), ...Object.values(manifest.csv), ...Object.values(manifest.xlsx)].map((e) => e.object));
  const objects = Object.fromEntries(Object.entries(manifest.objects).filter(([object]) => used.has(object)));
  return makeManifest(manifest, entries, objects, manifest.files, manifest).build_id;
}

/** The document without the examples that the loaded version adds. */
function withoutExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExamples);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'example' || (k === 'examples' && !Array.isArray(v)))).map(([k, v]) => [k, withoutExamples(v)]));
}

describe('the OpenAPI document', () => {
  it('passes Redocly\'s strictest built-in ruleset without a single problem', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('is served without a key, as the build stored it in the version (with its examples), with ETag, caching, brotli and 304', async () => {
    const res = await service.proxy.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const tree = testTree();
    const divided = dividedCities(indexDirectory(tree.directory));
    expect(withoutExamples(res.parsed(OpenApiDocument))).toEqual(withoutExamples(JSON.parse(JSON.stringify(openApiDocument(undefined, divided)))));
    expect((await service.proxy.get('/openapi.json', { 'if-none-match': res.headers.etag as string })).status).toBe(304);
    expect(res.headers.etag).toBe(tree.manifest.entries['/openapi.json']!.etag);
    // The renderer's bundle too, which the description does not list: the reference page loads it (test/docs/docs.request.test.ts).
    for (const path of Object.keys(DOCUMENTS)) {
      const br = await request(new URL(path, service.proxy.url).href, { headers: { 'accept-encoding': 'br' } });
      expect(br.status, path).toBe(200);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers['content-type'], path).toBe(DOCUMENTS[path as keyof typeof DOCUMENTS]);
      expect(br.body.equals(tree.file(path, 'br')), path).toBe(true);
    }
  });

  it('shows real answers as examples: each is what the proxy answers to its question, and valid against its own schema', async () => {
    const doc = (await service.proxy.get('/openapi.json')).parsed(OpenApiDocument);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');
    const checked: string[] = [];
    const expectValid = (pointer: string, value: unknown) => {
      const validate = ajv.compile({ $ref: `openapi#${pointer}` });
      expect(validate(value), `${pointer}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked.push(pointer);
    };
    for (const [id, path] of Object.entries(EXAMPLE_PATHS)) {
      const template = { lookup: '/finanzamt', office: '/finanzamt/{amtsnummer}', district: '/finanzamt/{amtsnummer}/bezirk', collection: '/finanzaemter' }[id]!;
      const example = answerExample(jsonMedia(doc.paths[template]!.get.responses['200']), id);
      expect(example, path).toEqual((await service.get(path)).parsed(z.json()));
      expectValid(`/paths/${template.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`, example);
    }
    const lookup = jsonMedia(doc.paths['/finanzamt']!.get.responses['200']);
    expect(LookupResponse.parse(answerExample(lookup, 'lookup')).gemeinden[0]!.ags).toBe('05315000');
    // November 2025 knows no retired key: no example of one, rather than one of another version. It divides cities:
    // a unit found by ort, as the proxy answers it.
    expect(Object.keys(lookup.examples ?? {})).toEqual(['lookup', 'unit_hit']);
    const unitExample = lookup.examples!.unit_hit!.value;
    const unitHit = LookupResponse.parse(unitExample);
    expect(unitHit.frage.gefundene_teile).toHaveLength(1);
    expect(unitHit.gemeinden[0]!.teile).toEqual([expect.objectContaining({ name: unitHit.frage.gefundene_teile![0]!.name })]);
    expect(unitExample).toEqual((await service.get(`/finanzamt?${new URLSearchParams({ ort: unitHit.frage.ort! })}`)).parsed(z.json()));
    expectValid('/paths/~1finanzamt/get/responses/200/content/application~1json/schema', unitExample);
    for (const [id, response] of Object.entries(doc.components.responses as Record<string, any>)) {
      const media = response.content?.['application/json'];
      if (media === undefined) continue;
      const codes: string[] = media.schema.allOf[1].properties.code.enum;
      // Each code's own example, in the order of the codes; further cases of a code may follow it.
      expect(Object.keys(media.examples).filter((name) => codes.includes(name)), id).toEqual(codes);
      for (const [name, example] of Object.entries(media.examples as Record<string, { value: { code: string } }>)) {
        expect(codes, `${id} ${name}`).toContain(example.value.code);
        if (codes.includes(name)) expect(example.value.code).toBe(name);
        expectValid(`/components/responses/${id}/content/application~1json/schema`, example.value);
      }
    }
    // The error examples are the proxy's own words: the one for an unknown office is what it answers.
    expect(jsonMedia(doc.components.responses.NotFound).examples?.not_found?.value).toEqual((await service.get('/finanzamt/9999')).parsed(ErrorResponse));
    expect(jsonMedia(doc.components.responses.BadRequest).examples?.bad_parameter?.value).toEqual((await service.get('/finanzamt?ort=%C3%96l')).parsed(ErrorResponse));
    for (const [id, parameter] of Object.entries(doc.components.parameters as Record<string, any>)) {
      // plz and ort carry theirs switched off (x-disabled): only one of ags, plz and ort may be sent.
      const example = parameter.example ?? (Object.values(parameter.examples ?? {})[0] as { value: unknown } | undefined)?.value;
      expect(example, id).toBeDefined();
      const typed = parameter.schema.type === 'integer' ? Number(example) : example;
      expectValid(`/components/parameters/${id}/schema`, typed);
    }
    const health = HealthResponse.parse(jsonMedia(doc.paths['/healthz']!.get.responses['200']).example);
    const live = (await service.proxy.get('/healthz')).parsed(HealthResponse);
    // The document is part of the build whose id would hash it: its example shows the id of the answers it describes,
    // and the age of the data on the day it was built.
    expect({ ...health, build_id: live.build_id, alter_tage: live.alter_tage }).toEqual(live);
    expect(health.alter_tage).toBeLessThanOrEqual(live.alter_tage);
    expect(health.build_id).toBe(answersId(testTree().root));
    // The batch's example: its request is a valid request and its answer what the proxy answers to it.
    const post = doc.paths['/finanzamt']!.post!;
    const request = post.requestBody!.content['application/json']!.example;
    expectValid('/components/schemas/BatchRequest', request);
    const batch = jsonMedia(post.responses['200']).example;
    expect(batch).toEqual((await service.post('/finanzamt', JSON.stringify(request))).parsed(BatchResponse));
    expectValid('/paths/~1finanzamt/post/responses/200/content/application~1json/schema', batch);
    expect(BatchResponse.parse(batch).antworten.map((a) => a.status)).toEqual([200, 200, 400]);
    expect(checked.length).toBeGreaterThan(25);
  });

  it('shows a retired key and a retired office number where the version knows them, as the proxy answers them', async () => {
    const doc = (await service2026.proxy.get('/openapi.json')).parsed(OpenApiDocument);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');
    const expectValid = (pointer: string, value: unknown) => {
      const validate = ajv.compile({ $ref: `openapi#${pointer}` });
      expect(validate(value), `${pointer}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    const lookup = jsonMedia(doc.paths['/finanzamt']!.get.responses['200']);
    expect(Object.keys(lookup.examples ?? {})).toEqual(['lookup', 'retired_key', 'unit_hit']);
    const retired = lookup.examples!.retired_key!;
    expect(retired.value).toEqual((await service2026.get(`/finanzamt?ags=${EXAMPLE_RETIRED_KEY}`)).parsed(z.json()));
    expectValid('/paths/~1finanzamt/get/responses/200/content/application~1json/schema', retired.value);
    // Hanau's old key: answered with its successor's office, the key asked echoed, the successor named.
    const body = LookupResponse.parse(retired.value);
    expect(body).toMatchObject({ frage: { ags: EXAMPLE_RETIRED_KEY }, eindeutig: true, anzahl_aemter: 1 });
    expect(body.ags_nachfolger).toEqual([{ ags: '06415000', name: 'Hanau, Brüder-Grimm-Stadt', gilt_ab: '2026-01-01' }]);
    expect(body.gemeinden.map((m) => m.ags)).toEqual(['06415000']);
    expect(retired.summary).toContain('06415000');

    const notFound = jsonMedia(doc.components.responses.NotFound);
    expect(Object.keys(notFound.examples ?? {})).toEqual(['not_found', 'not_found_retired']);
    const gone = notFound.examples!.not_found_retired!.value;
    expect(gone).toEqual((await service2026.get(`/finanzamt/${EXAMPLE_RETIRED_OFFICE}`)).parsed(ErrorResponse));
    expect(gone).toEqual((await service2026.get(`/finanzamt/${EXAMPLE_RETIRED_OFFICE}/bezirk`)).parsed(ErrorResponse));
    expect(ErrorResponse.parse(gone)).toMatchObject({ code: 'not_found', detail: expect.stringContaining('Nachfolger ist 2614') });
    expectValid('/components/responses/NotFound/content/application~1json/schema', gone);
  });

  it.each(['2025', '2026'] as const)('names the divided cities the %s version has, from its data (issue 45, item 3)', async (name) => {
    const doc = (await (name === '2025' ? service : service2026).proxy.get('/openapi.json')).parsed(OpenApiDocument) as ReturnType<typeof openApiDocument>;
    const cities = testTree(name).directory.municipalities.filter((m) => m.teile !== undefined);
    // Every city the bundle's ordinances divide (rule 12), read off its rows rather than through the build.
    const { bundle } = await realDirectory(name);
    expect(cities.map((m) => m.ags).sort()).toEqual([...new Set(bundle.divisions.map((d) => d.ags))].sort());
    const lookup = doc.paths['/finanzamt']!.get.description!;
    for (const text of [doc.info.description, lookup]) {
      expect(text).toContain(`(${cities.length} cities: `);
      for (const city of cities) expect(text).toContain(city.name.split(',')[0]!);
      expect(text).not.toMatch(/\bten cities\b/);
    }
  });

  it('labels its examples in plain text, without the backticks a reference page would show as they are', async () => {
    const labels: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'examples' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
            for (const example of Object.values(value)) labels.push((example as { summary?: string }).summary ?? '');
          }
          walk(value);
        }
      }
    };
    walk((await service2026.proxy.get('/openapi.json')).parsed(OpenApiDocument));
    expect(labels).toContain('ags=05315000: Köln, Stadt');
    expect(labels.filter((label) => label.includes('`'))).toEqual([]);
  });

  it('describes both key schemes and all four data paths with their parameters', () => {
    const doc = openApiDocument();
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, Bearer: { type: 'http', scheme: 'bearer' },
    });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/finanzamt', '/finanzamt/{amtsnummer}', '/finanzamt/{amtsnummer}/bezirk', '/finanzaemter', '/healthz']));
  });
});

describe('the document as generators read it', () => {
  const doc = openApiDocument();
  const schemas = doc.components.schemas as Record<string, any>;

  it('has one Office schema whose gemeinden is optional, used by every answer that carries offices', () => {
    expect(schemas.Office.required).not.toContain('gemeinden');
    expect(schemas.Office.properties.gemeinden).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/DistrictMunicipality' } });
    expect(schemas.OfficeResponse.properties.amt).toEqual({ $ref: '#/components/schemas/Office' });
    for (const id of ['LookupResponse', 'CollectionResponse']) expect(schemas[id].properties.aemter.items).toEqual({ $ref: '#/components/schemas/Office' });
    expect(JSON.stringify(doc)).not.toContain('OfficeWithDistrict');
  });

  it('bounds frage.limit to 1–200 and types gemeinden as the integer enum 0 | 1 everywhere', () => {
    expect(schemas.LookupFrage.properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 200 });
    expect(schemas.LookupFrage.properties.gemeinden).toEqual({ type: 'integer', enum: [0, 1] });
    for (const id of ['lookupGemeinden', 'officeGemeinden', 'collectionGemeinden', 'ohneBezirk']) {
      expect((doc.components.parameters as Record<string, any>)[id].schema).toMatchObject({ type: 'integer', enum: [0, 1] });
    }
    expect(JSON.stringify(doc)).not.toContain(String(Number.MIN_SAFE_INTEGER));
    expect(JSON.stringify(doc)).not.toMatch(/"anyOf":\[\{"type":"number","const"/);
  });

  it('shows the parts of divided cities: teile in both forms, the provenance verordnung and the parameter stadtteil', () => {
    expect(schemas.LookupMunicipality.required).toContain('teile');
    expect(schemas.LookupMunicipality.properties.teile.anyOf).toEqual([{ type: 'array', items: { $ref: '#/components/schemas/Teil' } }, { type: 'null' }]);
    expect(schemas.DistrictMunicipality.required).not.toContain('teile');
    expect(schemas.DistrictMunicipality.properties.teile).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Teil' } });
    expect(schemas.Teil.required).toEqual(['art', 'name', 'ausser', 'nur']);
    expect(schemas.TeilArt.enum).toEqual(['stadtbezirk', 'stadtteil', 'bezirk', 'ortschaft']);
    expect(schemas.LookupFrage.properties.gefundene_teile).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/GefundenerTeil' } });
    expect(schemas.GefundenerTeil.required).toEqual(['ags', 'art', 'name']);
    expect(schemas.Zuordnung.enum).toContain('verordnung');
    expect(schemas.LookupFrage.properties.stadtteil).toEqual({ type: 'string' });
    expect(doc.paths['/finanzamt']!.get.parameters).toContainEqual({ $ref: '#/components/parameters/stadtteil' });
    expect((doc.components.parameters as Record<string, any>).stadtteil).toMatchObject({ name: 'stadtteil', in: 'query', schema: { type: 'string', maxLength: 100 } });
  });

  it('shows what to ask the person: rueckfragen, its questions and options named and described (issue 45, item 4)', () => {
    const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
    expect(schemas.LookupResponse.required).toContain('rueckfragen');
    expect(schemas.LookupResponse.properties.rueckfragen).toMatchObject({ anyOf: [{ type: 'array', items: ref('Rueckfrage') }, { type: 'null' }], description: expect.stringContaining('in the order to ask it') });
    expect(schemas.LookupResponse.properties.hinweis.description).toMatch(/for the person.*no parameter or field names/);
    expect(schemas.RueckfrageArt.enum).toEqual(['schreibweise', 'bundesland', 'gemeinde', 'stadtteil', 'strasse', 'hausnummer', 'steuerbescheid']);
    // The parameters an answer goes into are the lookup's own, but the two that stay as asked.
    expect(schemas.RueckfrageParameter.enum).toEqual(Object.keys(LookupParameters.shape).filter((p) => p !== 'gemeinden' && p !== 'limit'));
    expect(schemas.Rueckfrage.properties).toMatchObject({ art: ref('RueckfrageArt'), parameter: ref('RueckfrageParameter') });
    expect(schemas.RueckfrageOption.properties.abfrage.anyOf[0]).toMatchObject({ type: 'object', propertyNames: ref('RueckfrageParameter') });
    for (const id of ['Rueckfrage', 'RueckfrageOption', 'RueckfrageArt', 'RueckfrageParameter']) {
      expect(schemas[id].description, id).toBeTruthy();
      for (const [name, member] of Object.entries((schemas[id].properties ?? {}) as Record<string, any>)) expect(member.description ?? member.$ref, `${id}.${name}`).toBeTruthy();
    }
  });

  it('shows retired keys and office numbers: AgsNachfolger, RetiredKey and RetiredOffice named and described, the ags parameter and the 404', () => {
    const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
    expect(schemas.LookupResponse.required).toContain('ags_nachfolger');
    expect(schemas.LookupResponse.properties.ags_nachfolger).toMatchObject({ anyOf: [{ type: 'array', items: ref('AgsNachfolger') }, { type: 'null' }], description: expect.stringMatching(/valid once and is not now.*Null for every other question/) });
    expect(schemas.AgsNachfolger).toMatchObject({ type: 'object', required: ['ags', 'name', 'gilt_ab'], description: expect.stringContaining('retired municipality key') });
    expect(schemas.AgsNachfolger.properties.ags).toEqual(ref('Ags'));
    expect(schemas.CollectionResponse.properties.ersetzte_schluessel).toMatchObject({ type: 'array', items: ref('RetiredKey'), description: expect.stringContaining('`gemeinden=1`') });
    expect(schemas.CollectionResponse.properties.ersetzte_amtsnummern).toMatchObject({ type: 'array', items: ref('RetiredOffice'), description: expect.stringContaining('`gemeinden=1`') });
    expect(schemas.CollectionResponse.required).not.toContain('ersetzte_schluessel');
    expect(schemas.CollectionResponse.required).not.toContain('ersetzte_amtsnummern');
    expect(schemas.RetiredKey.properties.nachfolger.items).toEqual(ref('AgsNachfolger'));
    expect(schemas.RetiredOffice.properties.nachfolger.items).toEqual(ref('BufaNr'));
    // Every member of these is described, in itself or by the component it refers to.
    for (const id of ['AgsNachfolger', 'RetiredKey', 'RetiredOffice']) {
      expect(schemas[id].description, id).toBeTruthy();
      for (const [name, member] of Object.entries(schemas[id].properties as Record<string, any>)) expect(member.description ?? member.$ref, `${id}.${name}`).toBeTruthy();
    }
    const parameters = doc.components.parameters as Record<string, any>;
    expect(parameters.ags.description).toMatch(/valid once and is not now.*`ags_nachfolger`/);
    expect(parameters.amtsnummer.description).toContain('no longer exists');
    const office = doc.paths['/finanzamt/{amtsnummer}']!.get;
    expect(office.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(office.description).toMatch(/no longer exists.*`detail` names the office\(s\) that took it over/);
    expect((doc.components.responses as Record<string, any>).NotFound.description).toContain('no longer exists');
  });

  it('types /openapi.json as an OpenAPI document and declares Access-Control-Expose-Headers on every response', () => {
    expect(jsonMedia(doc.paths['/openapi.json']!.get.responses['200']).schema).toEqual({ $ref: '#/components/schemas/OpenApiDocument' });
    expect(schemas.OpenApiDocument.required).toEqual(['openapi', 'info', 'paths']);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(Object.keys(inline(doc, response).headers ?? {}), `${method} ${path} ${status}`).toContain('Access-Control-Expose-Headers');
        }
      }
    }
    expect(doc.components.headers.AccessControlExposeHeaders.schema.const).toBe(EXPOSE);
  });

  it('has HEAD for every GET and OPTIONS on every path, as operations, and POST on /finanzamt only', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(Object.keys(item).sort(), path).toEqual(path === '/finanzamt' ? ['get', 'head', 'options', 'post'] : ['get', 'head', 'options']);
      expect(Object.keys(item.head.responses), path).toEqual(Object.keys(item.get.responses).filter((s) => s !== '405'));
      for (const response of Object.values(item.head.responses)) {
        expect(inline(doc, response).content, path).toBeUndefined();
      }
      expect(Object.keys(item.options.responses)).toEqual(['204', '429']);
    }
    expect(new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId))).size).toBe(Object.keys(doc.paths).length * 3 + 1);
  });

  it('lists the codes of every error status, from the one table', () => {
    const listed = Object.values(doc.components.responses as Record<string, any>)
      .flatMap((r) => r.content?.['application/json']?.schema.allOf?.[1].properties.code.enum ?? []);
    // Only what is answered of the head before any route is known (clientError.ts, requestHead.ts), a fault of the
    // service, and the status of a question inside a batch's answer (never a response's own) are not per operation.
    expect(new Set(listed)).toEqual(new Set(ERROR_CODES.filter((c) => !['bad_request', 'expectation_failed', 'request_timeout', 'internal', 'batch_answers_too_large'].includes(c))));
  });
});

describe('the contract check', () => {
  const contract = new Contract(JSON.parse(JSON.stringify(openApiDocument())));
  const HEADERS = {
    'access-control-allow-origin': '*', 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '1',
    etag: 'W/"20251130_0000-AAAAAAAAAAAAAAAAAAAAAA"', 'cache-control': 'public, max-age=3600', vary: 'Accept-Encoding',
    'content-type': 'application/json; charset=utf-8', 'content-length': '2', 'access-control-expose-headers': EXPOSE,
  };
  const district = { stand: '30.11.2025', bufa_nr: '2115', bezeichnung: 'Finanzamt Flensburg', bundesland: 'Schleswig-Holstein', ohne_bezirk: false, anzahl: 0, gemeinden: [] };
  const response = (status: number, body: unknown, headers: Record<string, string> = HEADERS): RawResponse => {
    return rawResponse(status, headers, Buffer.from(JSON.stringify(body)));
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
    ['an error without detail', response(404, { message: 'x', code: 'not_found' }), /detail/],
    ['an error without code', response(404, { detail: 'x' }), /code/],
    ['an error with a code of another status', response(404, { detail: 'x', code: 'key_blocked' }), /code/],
  ])('rejects %s', (_what, res, message) => {
    expect(() => contract.check('GET', '/finanzamt/2115/bezirk', res)).toThrow(message);
  });

  it('rejects an office whose district is broken, rather than taking it for an office without one', async () => {
    const real = await service.get('/finanzamt/2115?gemeinden=1');
    const body = real.parsed(OfficeResponse);
    expect(() => contract.check('GET', '/finanzamt/2115?gemeinden=1', response(200, body))).not.toThrow();
    body.amt.gemeinden![0]!.ags = '123';
    expect(() => contract.check('GET', '/finanzamt/2115?gemeinden=1', response(200, body))).toThrow(/gemeinden\/0\/ags/);
  });
});
