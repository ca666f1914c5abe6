// A tax number is personal data, and it leaves the proxy only in the answer to the caller who sent it: whatever a
// caller does with one (a valid number, a wrong check digit, malformed, in the written form, beside other keys or a
// state it does or does not fit, on paths that do not take it, without a key; in a batch too, also as a JSON number and in bodies refused whole), no
// error body, no header, nothing the proxy writes (log file, stdout, stderr), none of its metrics and nothing its
// heap keeps after the requests holds the number, and no response lets a shared cache keep it. As
// test/reliability/secrets.test.ts proves it of the access keys.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredCheckDigit } from '../../core/steuernummer/checkDigit.ts';
import { SCHEMES } from '../../core/steuernummer/schemes.ts';
import { request, type RawResponse } from '../support/http.ts';
import { heapHolds, INSPECT } from '../support/inspector.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { cli, issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';

let proxy: ProxyProcess;
let key: string;
let blocked: string;

beforeAll(async () => {
  const keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'caller');
  blocked = await issueKey(keysFile, 'blocked');
  await cli(['keys', 'block', 'blocked', '--keys-file', keysFile]);
  proxy = await startProxy({ keysFile, nodeArgs: [INSPECT], args: ['--dist', testDist('saarland'), '--metrics-port', '0', ...UNLIMITED] });
});

afterAll(async () => {
  await proxy?.stop();
});

/** A fixed pseudo-random digit source, so that a failure names the same numbers on the next run. */
function digits(seed: number): (n: number) => string {
  let state = seed;
  return (n) => Array.from({ length: n }, () => String((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % 10)).join('');
}

/**
 * Numbers of real offices of Bayern, Berlin and Nordrhein-Westfalen (each with a written form easy to spell
 * out) with their own district and case digits and the check digit the state's method requires; digits that
 * nowhere occur in the directory, so that finding them anywhere is a leak and not a coincidence.
 */
function personalNumbers(): { federal: string; written: string }[] {
  const directory = JSON.stringify(testTree('saarland').directory);
  const next = digits(20251130);
  const written: Record<string, (f: string) => string> = {
    Bayern: (f) => `${f.slice(1, 4)}/${f.slice(5, 8)}/${f.slice(8)}`,
    Berlin: (f) => `${f.slice(2, 4)}/${f.slice(5, 8)}/${f.slice(8)}`,
    'Nordrhein-Westfalen': (f) => `${f.slice(1, 4)}/${f.slice(5, 9)}/${f.slice(9)}`,
  };
  const numbers: { federal: string; written: string }[] = [];
  for (const [bundesland, write] of Object.entries(written)) {
    const scheme = SCHEMES.find((s) => s.bundesland === bundesland)!;
    const offices = testTree('saarland').directory.offices.filter((o) => o.bundesland === bundesland && o.bufa_nr.startsWith(scheme.bundesschema.replace(/F.*/, '')));
    for (const office of offices.slice(0, 3)) {
      for (;;) {
        const body = `${office.bufa_nr}0${next(7)}`;
        const check = scheme.pruefziffer === 'nicht_geprueft' ? 0 : requiredCheckDigit(scheme.pruefziffer[0]!, `${body}0`);
        if (check === null || directory.includes(body.slice(5))) continue;
        const federal = `${body}${check}`;
        numbers.push({ federal, written: write(federal) });
        break;
      }
    }
  }
  return numbers;
}

const NUMBERS = personalNumbers();
/** Each number as anything could hold it: the forms, percent- and form-encoded, its digits, its personal part. */
const NEEDLES = [...new Set(NUMBERS.flatMap(({ federal, written }) => {
  const wrong = `${federal.slice(0, 12)}${(Number(federal[12]) + 1) % 10}`;
  return [federal, federal.slice(5), wrong, wrong.slice(5), written, encodeURIComponent(written), written.replaceAll('/', ''), federal.slice(5, 12)];
}))];

/** What `bundesland` may be beside a number: the states of NUMBERS, by code and by name, another, and none. */
const STATES = ['BY', 'Berlin', 'NW', 'HH', 'XX'];

/** Everything sent back: status line, headers and body of every response, with what an answer may echo removed. */
const answers: { what: string; res: RawResponse; echoed: string }[] = [];

async function send(what: string, path: string, headers: Record<string, string> = { 'x-api-key': key }, method = 'GET'): Promise<RawResponse> {
  const res = await request(`${proxy.url}${path}`, { method, headers });
  let echoed = res.text;
  // A 200 repeats the number to its caller, in `frage`: that and nothing else.
  if (res.status === 200 && method === 'GET') {
    const body = JSON.parse(res.text) as { frage: Record<string, unknown> };
    delete body.frage.steuernummer;
    delete body.frage.steuernummer_bund;
    echoed = JSON.stringify(body);
  }
  answers.push({ what: `${what}: ${method} ${path}`, res, echoed: `${res.status} ${JSON.stringify(res.headers)} ${echoed}` });
  return res;
}

/** An answer inside a batch envelope, as sent. */
interface BatchAnswer { status: number; antwort: { code?: string; frage?: Record<string, unknown> } }
/** How many batches (POST /finanzamt) were sent, and how many of them were answered 200. */
const posted = { requests: 0, parsed: 0 };
/** The responses to them. */
const batches: { what: string; res: RawResponse }[] = [];

/**
 * POSTs `body` as a batch (JSON unless `headers` say otherwise) and keeps the response like `send` does: of a 200,
 * each answer's own `frage` may repeat its number to the caller, and nothing else of the envelope may.
 */
async function sendBatch(what: string, body: string | Buffer, headers: Record<string, string> = { 'x-api-key': key }, path = '/finanzamt'): Promise<RawResponse> {
  const res = await request(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  posted.requests++;
  let echoed = res.text;
  if (res.status === 200) {
    posted.parsed++;
    const envelope = JSON.parse(res.text) as { antworten: BatchAnswer[] };
    for (const { status, antwort } of envelope.antworten) {
      if (status !== 200) continue;
      delete antwort.frage!.steuernummer;
      delete antwort.frage!.steuernummer_bund;
    }
    echoed = JSON.stringify(envelope);
  }
  const sent = `${what}: POST ${path} ${String(body).slice(0, 120)}`;
  answers.push({ what: sent, res, echoed: `${res.status} ${JSON.stringify(res.headers)} ${echoed}` });
  batches.push({ what: sent, res });
  return res;
}

/** The answers of a batch answered 200. */
function answersOf(res: RawResponse, what: string): BatchAnswer[] {
  expect(res.status, what).toBe(200);
  return (JSON.parse(res.text) as { antworten: BatchAnswer[] }).antworten;
}

describe('tax numbers never leave the proxy beyond their own answer', () => {
  it('sends every number in every way, and gets answers (never a 5xx)', async () => {
    for (const { federal, written } of NUMBERS) {
      const wrong = `${federal.slice(0, 12)}${(Number(federal[12]) + 1) % 10}`;
      for (const sent of [federal, written, wrong, `${federal}1`, `${written}x`]) {
        const q = encodeURIComponent(sent);
        const ok = await send('lookup', `/finanzamt?steuernummer=${q}`);
        await send('with its district', `/finanzamt?steuernummer=${q}&gemeinden=1&limit=5`);
        await send('HEAD', `/finanzamt?steuernummer=${q}`, { 'x-api-key': key }, 'HEAD');
        if (ok.headers.etag) await send('revalidated', `/finanzamt?steuernummer=${q}`, { 'x-api-key': key, 'if-none-match': ok.headers.etag });
        await send('form-encoded', `/finanzamt?steuernummer=${new URLSearchParams({ s: sent }).toString().slice(2)}`);
        for (const more of [`&steuernummer=${q}`, '&ags=10041100', '&gemeinden=2', '&limit=0', '&x=1', '&apikey=x']) await send('with more', `/finanzamt?steuernummer=${q}${more}`);
        // Read in a state's scheme only (its own or another), or beside a state that is none.
        for (const state of STATES) await send('with a state', `/finanzamt?steuernummer=${q}&bundesland=${state}`);
        await send('HEAD with a state', `/finanzamt?steuernummer=${q}&bundesland=BE`, { 'x-api-key': key }, 'HEAD');
        for (const path of [`/finanzaemter?steuernummer=${q}`, `/finanzamt/2115?steuernummer=${q}`, `/finanzamt/2115/bezirk?steuernummer=${q}`, `/finanzamt?STEUERNUMMER=${q}`]) await send('elsewhere', path);
        for (const headers of [{}, { 'x-api-key': 'fa_unknownunknownunknown' }, { 'x-api-key': blocked }] as Record<string, string>[]) await send('without a valid key', `/finanzamt?steuernummer=${q}`, headers);
        await send('another method', `/finanzamt?steuernummer=${q}`, { 'x-api-key': key }, 'POST');
        await send('no encoding', `/finanzamt?steuernummer=${q}`, { 'x-api-key': key, 'accept-encoding': 'identity;q=0, *;q=0' });
        await send('If-Match', `/finanzamt?steuernummer=${q}`, { 'x-api-key': key, 'if-match': 'W/"x"' });
      }
    }
    expect(answers.filter((a) => a.res.status === 200 && a.what.startsWith('lookup:')).length).toBeGreaterThanOrEqual(NUMBERS.length * 2);
    for (const { what, res } of answers) expect(res.status, what).toBeLessThan(500);
  });

  it('sends every number in batches too (POST /finanzamt): as text in every form, as a JSON number, beside other questions, in bodies refused whole', async () => {
    const fragen = (...questions: unknown[]) => JSON.stringify({ fragen: questions });
    for (const { federal, written } of NUMBERS) {
      const wrong = `${federal.slice(0, 12)}${(Number(federal[12]) + 1) % 10}`;
      // Valid: answered, the number repeated in the answer's own `frage` (what the checks below take out, and
      // nothing else) and so found where the search looks.
      for (const sent of [federal, written]) {
        const res = await sendBatch('valid', fragen({ steuernummer: sent }));
        const [own] = answersOf(res, sent);
        expect(own!.status, sent).toBe(200);
        expect(own!.antwort.frage, sent).toMatchObject({ steuernummer: sent });
        expect(res.text, sent).toContain(`"steuernummer":${JSON.stringify(sent)}`);
        if (sent === federal) expect(res.text).toContain(`"steuernummer_bund":"${federal}"`);
        const mixed = answersOf(await sendBatch('among others', fragen({ ags: '10041100' }, { steuernummer: sent, gemeinden: 1, limit: 5 }, { plz: '66111' })), sent);
        expect(mixed.map((a) => a.status), sent).toEqual([200, 200, 200]);
        const states = answersOf(await sendBatch('with a state', fragen(...STATES.map((bundesland) => ({ steuernummer: sent, bundesland })))), sent);
        expect(states.map((a) => a.status), sent).toContain(200);
      }
      // Refused, each question on its own: a wrong check digit and malformed numbers.
      for (const sent of [wrong, `${federal}1`, `${written}x`]) {
        const refused = answersOf(await sendBatch('refused', fragen({ steuernummer: sent }, { ags: '10041100' })), sent);
        expect(refused.map((a) => [a.status, a.antwort.code]), sent).toEqual([[400, 'bad_steuernummer'], [200, undefined]]);
      }
      // As a JSON number rather than text (as JSON writes it: no leading zero, or with an exponent): refused as
      // not text, whatever the number.
      const asNumbers = [federal, wrong, `${federal}1`, String(Number(written.replace(/\D/g, ''))), `${federal[0]}.${federal.slice(1)}e12`];
      for (const sent of asNumbers) {
        const asNumber = answersOf(await sendBatch('a JSON number', `{"fragen": [{"steuernummer": ${sent}}, {"steuernummer": ${sent}, "gemeinden": 1}]}`), sent);
        expect(asNumber.map((a) => [a.status, a.antwort.code]), sent).toEqual([[400, 'bad_parameter'], [400, 'bad_parameter']]);
      }
      for (const sent of [federal, written, wrong]) {
        // Beside parameters that the question cannot have, or a key among them; under another spelling of its name.
        const beside = [
          { steuernummer: sent, ags: '10041100' }, { steuernummer: sent, gemeinden: 2 }, { steuernummer: sent, limit: 0 }, { steuernummer: sent, x: '1' },
          { steuernummer: sent, apikey: 'x' }, { steuernummer: sent, gemeinden: null }, { steuernummer: sent, limit: 2.5 }, { STEUERNUMMER: sent },
          { Steuernummer: Number(federal) },
        ];
        const besides = answersOf(await sendBatch('with more', fragen(...beside)), sent);
        expect(besides.map((a) => a.status), sent).toEqual(beside.map(() => 400));
        // Without a valid key: refused whole.
        const keys: [Record<string, string>, number][] = [
          [{}, 401], [{ 'x-api-key': 'fa_unknownunknownunknown' }, 401], [{ 'x-api-key': blocked }, 403], [{ 'x-api-key': key, authorization: `Bearer ${key}` }, 400],
        ];
        for (const [headers, status] of keys) expect((await sendBatch('without a valid key', fragen({ steuernummer: sent }), headers)).status, sent).toBe(status);
        // Bodies refused whole with the number in them: not JSON, not UTF-8, not the shape, too many questions,
        // not JSON by their type, too large, and a batch with the number in its address as well.
        const inBody = fragen({ steuernummer: sent });
        const wholes: [string, string | Buffer, Record<string, string>, string, number][] = [
          ['unfinished', inBody.slice(0, -2), {}, '/finanzamt', 400],
          ['not UTF-8', Buffer.concat([Buffer.from(inBody.slice(0, -4)), Buffer.from([0xf6]), Buffer.from(inBody.slice(-4))]), {}, '/finanzamt', 400],
          ['nested', fragen({ steuernummer: { wert: sent } }), {}, '/finanzamt', 400],
          ['a list of texts', fragen(sent), {}, '/finanzamt', 400],
          ['a member more', JSON.stringify({ fragen: [{ ags: '10041100' }], steuernummer: sent }), {}, '/finanzamt', 400],
          ['101 questions', fragen(...Array.from({ length: 101 }, () => ({ steuernummer: sent }))), {}, '/finanzamt', 400],
          ['text/plain', inBody, { 'content-type': 'text/plain' }, '/finanzamt', 415],
          ['over 64 KiB', `${inBody}${' '.repeat(64 * 1024)}`, {}, '/finanzamt', 413],
          ['in the address', inBody, {}, `/finanzamt?steuernummer=${encodeURIComponent(sent)}`, 400],
        ];
        for (const [what, body, headers, path, status] of wholes) {
          expect((await sendBatch(what, body, { 'x-api-key': key, ...headers }, path)).status, `${what}: ${sent}`).toBe(status);
        }
      }
    }
    expect(posted.parsed).toBeGreaterThan(NUMBERS.length * 10);
    for (const { what, res } of batches) {
      expect(res.status, what).toBeLessThan(500);
      expect(res.headers['cache-control'], what).toBe('no-store');
      expect(res.headers.etag, what).toBeUndefined();
    }
  });

  it('no response holds a number beyond the answer\'s own `frage`, and none lets a shared cache keep it', () => {
    expect(answers.length).toBeGreaterThan(500);
    for (const { what, res, echoed } of answers) {
      for (const needle of NEEDLES) expect.soft(echoed.includes(needle), `${what}: ${needle} in ${echoed.slice(0, 300)}`).toBe(false);
      expect.soft(['private, max-age=3600', 'no-store'], what).toContain(res.headers['cache-control']);
    }
  });

  it('no metric holds a number; lookups by tax number are counted by their route', async () => {
    const { text, samples } = await scrape(metricsUrl(proxy));
    for (const needle of NEEDLES) expect(text, needle).not.toContain(needle);
    expect(total(samples, 'finanzamt_http_request_duration_seconds_count', { route: 'lookup_steuernummer', status_class: '2xx' })).toBeGreaterThan(NUMBERS.length);
    // The batches are counted, by their route and nothing of their questions.
    expect(total(samples, 'finanzamt_http_request_duration_seconds_count', { route: 'batch', status_class: '2xx' })).toBeGreaterThanOrEqual(posted.parsed);
  });

  it('the heap keeps no number once the requests are answered', async () => {
    // Questions of another kind after them: what the last requests leave behind (V8's last regular-expression
    // match among it) then belongs to these.
    for (const path of ['/finanzamt?ags=10041100', '/finanzamt?ort=Saarlouis', '/finanzaemter?limit=2']) {
      expect((await request(`${proxy.url}${path}`, { headers: { 'x-api-key': key } })).status).toBe(200);
    }
    // An office's street address from the directory is found: the search reads the whole heap.
    const control = testTree('saarland').directory.offices.find((o) => o.bufa_nr === '2115')!.anschrift.strasse!;
    expect(await heapHolds(proxy, [...NEEDLES, control])).toEqual([control]);
  }, 120_000);

  it('nothing the proxy wrote (log file, stdout, stderr) holds a number', async () => {
    await proxy.stop();
    const written = `${readFileSync(proxy.logFile, 'utf8')}\n${proxy.output()}`;
    const questions = written.split('\n').filter((l) => l.includes('"question":"/finanzamt?steuernummer='));
    expect(questions.length).toBeGreaterThan(NUMBERS.length * 4);
    // Every batch has its access line (the GETs' POSTs among them), which names neither its questions nor its
    // address's query; so the search below reads what a batch would leak.
    const posts = written.split('\n').filter((l) => l.includes('"msg":"request"') && l.includes('"method":"POST"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(posts.length).toBeGreaterThanOrEqual(posted.requests);
    expect(posts.filter((l) => typeof l.questions === 'number').length).toBeGreaterThanOrEqual(posted.parsed);
    for (const line of posts) expect(line).toMatchObject({ path: '/finanzamt', question: null });
    for (const needle of NEEDLES) expect(written, needle).not.toContain(needle);
  });
});
