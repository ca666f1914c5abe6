// bySteuernummer and batch against the real proxy: each answers what the service's GET answers for the same
// question, and refusals come as typed errors: GET /finanzamt?steuernummer= and POST /finanzamt, as
// docs/api.md describes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinanzamtApiError, FinanzamtClient, type BatchQuestion, type RetryEvent } from '../../client/index.ts';
import { ErrorResponse, LookupResponse } from '../../core/model.ts';
import { callerOfSharedProxy, startCallerProxy, type CallerProxy, type OwnCallerProxy } from '../support/callerProxy.ts';

let service: CallerProxy;
let limited: OwnCallerProxy;
let client: FinanzamtClient;

beforeAll(async () => {
  // One token a second and a full batch's worth at once: the second batch finds the bucket empty.
  [service, limited] = await Promise.all([callerOfSharedProxy('newEndpoints'), startCallerProxy({ args: ['--rate', '1', '--burst', '100'] })]);
  client = new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: service.key });
});

afterAll(async () => {
  await limited?.stop();
});

/** The status and body of the GET for `path`, through the contract check. */
async function got(path: string): Promise<{ status: number; antwort: unknown }> {
  const res = await service.get(path);
  return { status: res.status, antwort: res.status === 200 ? res.parsed(LookupResponse) : res.parsed(ErrorResponse) };
}

// The examples of the ELSTER scheme table for Bayern (FFF/BBB/UUUUP) and Nordrhein-Westfalen (FFF/BBBB/UUUP),
// in the state's form and in the 13-digit federal form; both offices are in the frozen bundle.
const TAX_NUMBERS = [
  ['181/815/08155', '/finanzamt?steuernummer=181%2F815%2F08155', '9181081508155', 'Bayern', '9181'],
  ['9181081508155', '/finanzamt?steuernummer=9181081508155', '9181081508155', 'Bayern', '9181'],
  ['133/8150/8159', '/finanzamt?steuernummer=133%2F8150%2F8159', '5133081508159', 'Nordrhein-Westfalen', '5133'],
] as const;

describe('bySteuernummer', () => {
  it.each(TAX_NUMBERS)('%s: the one office the number names, as the GET answers', async (number, path, federal, state, bufaNr) => {
    const answer = await client.bySteuernummer(number);
    expect(await got(path)).toEqual({ status: 200, antwort: answer });
    expect(answer).toMatchObject({
      frage: { steuernummer: number, steuernummer_bund: federal, bundesland: state },
      eindeutig: true,
      anzahl_aemter: 1,
      amt_herkunft: { bufa_nr: bufaNr, zuordnung: 'verzeichnis', ersetzt: null },
    });
    expect(answer.aemter.map((office) => office.bufa_nr)).toEqual([bufaNr]);
  });

  it('with gemeinden, the office with its district', async () => {
    const answer = await client.bySteuernummer('9181081508155', { gemeinden: true });
    expect(await got('/finanzamt?steuernummer=9181081508155&gemeinden=1')).toEqual({ status: 200, antwort: answer });
    expect(answer.aemter[0]!.gemeinden!.length).toBeGreaterThan(0);
  });

  it('a malformed number: a typed 400 whose message and path leave the number out', async () => {
    const error = await client.bySteuernummer('12/3456').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinanzamtApiError);
    const { antwort } = await got('/finanzamt?steuernummer=12%2F3456');
    expect(error).toMatchObject({ status: 400, code: 'bad_steuernummer', detail: (antwort as ErrorResponse).detail, path: '/finanzamt?steuernummer=…' });
    expect((error as Error).message).not.toContain('3456');
  });
});

/** Questions of every kind, good and bad, with the GET that asks each. */
const MIXED: [BatchQuestion, string][] = [
  [{ ags: '05315000' }, '/finanzamt?ags=05315000'],
  [{ plz: '50667', gemeinden: true }, '/finanzamt?plz=50667&gemeinden=1'],
  [{ ort: 'Köln', limit: 5 }, '/finanzamt?ort=K%C3%B6ln&limit=5'],
  [{ ags: '05x' }, '/finanzamt?ags=05x'],
  [{ steuernummer: '181/815/08155' }, '/finanzamt?steuernummer=181%2F815%2F08155'],
  [{ ags: '05315000', plz: '50667' }, '/finanzamt?ags=05315000&plz=50667'],
  [{ steuernummer: '12/3456', gemeinden: true }, '/finanzamt?steuernummer=12%2F3456&gemeinden=1'],
  [{ ags: '053', gemeinden: true, limit: 3 }, '/finanzamt?ags=053&gemeinden=1&limit=3'],
];

describe('batch', () => {
  it('answers every question in order with what its GET answers, successes and errors alike', async () => {
    const envelope = await client.batch(MIXED.map(([question]) => question));
    const gets = await Promise.all(MIXED.map(([, path]) => got(path)));
    expect(envelope.antworten).toEqual(gets);
    expect(envelope.anzahl).toBe(MIXED.length);
    expect(envelope.antworten.map((a) => a.status)).toEqual([200, 200, 200, 400, 200, 400, 400, 200]);
    const first = gets[0]!.antwort as LookupResponse;
    expect(envelope).toMatchObject({ stand: first.stand, stand_quelle: first.stand_quelle });
  });

  it('takes a hundred questions; a 101st, or none at all, refuses the whole batch', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => ({ plz: String(10115 + i) }));
    expect((await client.batch(hundred)).anzahl).toBe(100);
    await expect(client.batch([...hundred, { ags: '05315000' }])).rejects.toMatchObject({ name: 'FinanzamtApiError', status: 400, code: 'batch_too_large' });
    await expect(client.batch([])).rejects.toMatchObject({ name: 'FinanzamtApiError', status: 400, code: 'bad_batch' });
  });

  it('over what the key has left: refused whole with 429, and retried after Retry-After when the wait is short', async () => {
    const once = new FinanzamtClient({ baseUrl: limited.proxy.url, apiKey: limited.key, retry: { attempts: 1 } });
    // Starting the proxy (its health, its description) spent tokens already: a batch takes what is left.
    const left = Number((await limited.get('/healthz')).headers['ratelimit-remaining']);
    // Enough that the second batch cannot pass on what the bucket earns back meanwhile (a token a second).
    expect(left).toBeGreaterThan(10);
    const full = Array.from({ length: left }, () => ({ ags: '05315000' }));
    expect((await once.batch(full)).anzahl).toBe(left);
    await expect(once.batch(full)).rejects.toMatchObject({ name: 'FinanzamtApiError', status: 429, code: 'rate_limited' });

    const events: RetryEvent[] = [];
    const patient = new FinanzamtClient({ baseUrl: limited.proxy.url, apiKey: limited.key, onRetry: (e) => events.push(e) });
    const answered = await patient.batch([{ ags: '05315000' }, { plz: '50667' }]);
    expect(answered.antworten.map((a) => a.status)).toEqual([200, 200]);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.status === 429 && e.path === '/finanzamt')).toBe(true);
  });
});
