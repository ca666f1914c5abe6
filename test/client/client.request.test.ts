// The typed client against the real proxy over loopback: every question gives the body the service sends
// (checked against the description by the contract-checked raw request), errors come typed with the
// service's status and detail, and a repeated question is revalidated with If-None-Match.
import { beforeAll, describe, expect, it } from 'vitest';
import { FinanzamtApiError, FinanzamtClient } from '../../client/index.ts';
import { eventually } from '../support/http.ts';
import { z } from 'zod';
import { ErrorResponse } from '../../core/model.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';

let service: CallerProxy;
let client: FinanzamtClient;

beforeAll(async () => {
  service = await callerOfSharedProxy('client');
  client = new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: service.key });
});

/** The body the service sends for `path`, through the contract check. */
async function raw(path: string): Promise<unknown> {
  const res = await service.get(path);
  expect(res.status).toBe(200);
  return res.parsed(z.json());
}

describe('one method per question, answering what the service answers', () => {
  it.each([
    ['byAgs', () => client.byAgs('05315000'), '/finanzamt?ags=05315000'],
    ['byAgs with options', () => client.byAgs('053', { gemeinden: true, limit: 3 }), '/finanzamt?ags=053&gemeinden=1&limit=3'],
    ['byAgs with a part of the city', () => client.byAgs('05315000', { stadtteil: 'Sülz', gemeinden: true }), '/finanzamt?ags=05315000&stadtteil=S%C3%BClz&gemeinden=1'],
    ['byOrt with a part of the city', () => client.byOrt('Köln', { stadtteil: 'Rath/Heumar', limit: 1 }), '/finanzamt?ort=K%C3%B6ln&stadtteil=Rath%2FHeumar&limit=1'],
    ['byPlz', () => client.byPlz('50667'), '/finanzamt?plz=50667'],
    ['byOrt', () => client.byOrt('Sankt Ingbert'), '/finanzamt?ort=Sankt%20Ingbert'],
    ['byOrt in one state', () => client.byOrt('Neustadt', { bundesland: 'SN' }), '/finanzamt?ort=Neustadt&bundesland=SN'],
    ['bySteuernummer in one state', () => client.bySteuernummer('21/815/08150', { bundesland: 'BE' }), '/finanzamt?steuernummer=21%2F815%2F08150&bundesland=BE'],
    ['office', () => client.office('2115'), '/finanzamt/2115'],
    ['office with district', () => client.office('2115', { gemeinden: true }), '/finanzamt/2115?gemeinden=1'],
    ['district', () => client.district('2115'), '/finanzamt/2115/bezirk'],
    ['offices', () => client.offices({ bundesland: 'Bayern', ohneBezirk: false, limit: 10, offset: 5 }), '/finanzaemter?bundesland=Bayern&ohne_bezirk=0&limit=10&offset=5'],
    ['offices with districts', () => client.offices({ gemeinden: true }), '/finanzaemter?gemeinden=1'],
  ] as const)('%s', async (_name, call, path) => {
    expect(await call()).toEqual(await raw(path));
  });

  it('sends the key as Authorization: Bearer when asked to', async () => {
    const bearer = new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: service.key, keyHeader: 'bearer' });
    expect((await bearer.office('2115')).amt.bufa_nr).toBe('2115');
  });

  it('says when several offices answer, and why', async () => {
    const koeln = await client.byAgs('05315000');
    expect(koeln.eindeutig).toBe(false);
    expect(koeln.anzahl_aemter).toBeGreaterThan(1);
    expect(koeln.hinweis).toContain('Bitte geben Sie an, in welchem Stadtteil Sie wohnen');
    expect(koeln.rueckfragen!.map((r) => r.art)).toEqual(['stadtteil', 'steuerbescheid']);
  });

  it('follows an option of rueckfragen to the lookup it asks, keeping gemeinden and limit', async () => {
    const [units, bill] = (await client.byAgs('05315000')).rueckfragen!;
    const suelz = units!.optionen!.find((o) => o.name === 'Sülz')!;
    expect(await client.follow(suelz, { gemeinden: true })).toEqual(await raw('/finanzamt?ags=05315000&stadtteil=S%C3%BClz&gemeinden=1'));
    // A state's option of a tax number asks the number again, which no answer repeats beyond frage.
    const byNumber = await client.bySteuernummer('21/815/08150');
    const [berlin] = byNumber.rueckfragen![0]!.optionen!;
    expect(berlin!.abfrage).toEqual({ bundesland: 'Berlin' });
    await expect(client.follow(berlin!)).rejects.toThrow(/pass it as steuernummer/);
    expect((await client.follow(berlin!, { steuernummer: byNumber.frage.steuernummer! })).aemter.map((a) => a.bufa_nr)).toEqual(berlin!.bufa_nr);
    // An office chosen from the tax assessment is the answer: nothing to ask.
    await expect(client.follow(bill!.optionen![0]!)).rejects.toThrow(/is an answer, not a question/);
  });
});

describe('typed errors', () => {
  it.each([
    ['a malformed key', () => client.byAgs('05x'), 400, '/finanzamt?ags=05x'],
    ['a malformed office number', () => client.office('21/5'), 400, '/finanzamt/21%2F5'],
    ['an unknown office', () => client.district('9999'), 404, '/finanzamt/9999/bezirk'],
    ['a limit out of range', () => client.offices({ limit: 601 }), 400, '/finanzaemter?limit=601'],
    ['a part of the city beside a key prefix', () => client.byAgs('05315', { stadtteil: 'Sülz' }), 400, '/finanzamt?ags=05315&stadtteil=S%C3%BClz'],
  ] as const)('%s: FinanzamtApiError with the service\'s status, code and detail', async (_what, call, status, path) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinanzamtApiError);
    const { detail, code } = (await service.get(path)).parsed(ErrorResponse);
    expect(error).toMatchObject({ status, path, detail, code: status === 404 ? 'not_found' : 'bad_parameter' });
    expect(code).toBe((error as FinanzamtApiError).code);
  });

  it.each([
    ['an unknown key', () => 'not-a-key', 401, 'key_unknown'],
    ['a blocked key', () => service.blockedKey, 403, 'key_blocked'],
  ])('%s: %s', async (_what, apiKey, status, code) => {
    const other = new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: apiKey() });
    await expect(other.office('2115')).rejects.toMatchObject({ name: 'FinanzamtApiError', status, code, detail: expect.any(String) });
  });
});

describe('revalidation', () => {
  it('asks again with If-None-Match and gets 304, answering the remembered body', async () => {
    const path = '/finanzaemter?gemeinden=1';
    const first = await client.offices({ gemeinden: true });
    const second = await client.offices({ gemeinden: true });
    expect(second).toEqual(first);
    await eventually('both requests in the access log', async () =>
      service.proxy.logLines().filter((l) => l.question === path && l.status === 304).length > 0);
  });
});
