// Batches of lookups (POST /finanzamt) through the real proxy over HTTP, against the real built tree: each answer
// in the envelope is the bytes its GET gives, the refusals of the whole request and their order in the pipeline,
// the rate limit by the number of questions, and what the access log keeps of a batch.
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decompressSync } from '../../core/compress.ts';
import { BatchResponse, ErrorResponse } from '../../core/model.ts';
import { BATCH_MAX_QUESTIONS } from '../../core/parameters.ts';
import { eventually, rawResponse, type RawResponse } from '../support/http.ts';
import { startInProcess, type RunningProxy } from '../support/inProcessProxy.ts';
import { cli, issueKey, scratchDir } from '../support/proxy.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testDist, testTree } from '../support/tree.ts';
import { SERVE_DEFAULTS } from '../../core/options.ts';

const tree = testTree();
const running = sharedProxyForFile('batch');
/** With the default rate limit, believing X-Forwarded-For from loopback so that each test has its own address. */
let limited: RunningProxy;
let limitedKey: string;

beforeAll(async () => {
  const keysFile = join(scratchDir(), 'keys.json');
  limitedKey = await issueKey(keysFile, 'limited');
  limited = await startInProcess({ keysFile, args: ['--dist', testDist(), '--trust-proxy', '127.0.0.1'] });
});

afterAll(async () => {
  await limited?.stop();
});

const keyed = () => ({ 'x-api-key': running.key });
const get = (path: string) => running.proxy.get(path, keyed());
const post = (body: string | Buffer, headers: Record<string, string> = {}) => running.proxy.post('/finanzamt', body, { ...keyed(), ...headers });
const batch = (...fragen: unknown[]) => JSON.stringify({ fragen });
const code = (res: RawResponse) => res.parsed(ErrorResponse).code;
/** The test client closes its connections unless it asks otherwise; asked, the proxy keeps those it can. */
const KEEP_ALIVE = { connection: 'keep-alive' };

/** The envelope the contract describes around the bodies of the GETs. */
function envelopeOf(answers: RawResponse[]): Buffer {
  const { stand, stand_quelle: standQuelle } = tree.manifest;
  return Buffer.concat([
    Buffer.from(`{"stand":"${stand}","stand_quelle":"${standQuelle}","anzahl":${answers.length},"antworten":[`),
    ...answers.flatMap((a, i) => [Buffer.from(`${i === 0 ? '' : ','}{"status":${a.status},"antwort":`), a.body, Buffer.from('}')]),
    Buffer.from(']}'),
  ]);
}

describe('POST /finanzamt', () => {
  it('answers each question in order with the very bytes of its GET: stored, rendered, no hit and refused alike', async () => {
    const asked: [unknown, string][] = [
      [{ ags: '05315000' }, '/finanzamt?ags=05315000'],
      [{ plz: '50667', gemeinden: 1 }, '/finanzamt?plz=50667&gemeinden=1'],
      [{ ort: 'Köln', limit: 5 }, `/finanzamt?ort=${encodeURIComponent('Köln')}&limit=5`],
      [{ ags: '0531500x' }, '/finanzamt?ags=0531500x'],
      [{ ags: '05', limit: '3', gemeinden: 0 }, '/finanzamt?ags=05&limit=3&gemeinden=0'],
      [{ ags: '05315000', limit: 201 }, '/finanzamt?ags=05315000&limit=201'],
      [{ plz: '50667', ags: '05315000' }, '/finanzamt?plz=50667&ags=05315000'],
      [{ ort: 'Xyzzyqwv' }, '/finanzamt?ort=Xyzzyqwv'],
      [{ ags: '05315000', farbe: 'blau' }, '/finanzamt?ags=05315000&farbe=blau'],
      [{ ags: '05315000' }, '/finanzamt?ags=05315000'],
      // A part of a divided city: stored, another spelling of it and by place name rendered.
      [{ ags: '05315000', stadtteil: 'Sülz' }, `/finanzamt?ags=05315000&stadtteil=${encodeURIComponent('Sülz')}`],
      [{ ags: '05315000', stadtteil: 'suelz', gemeinden: 1 }, '/finanzamt?ags=05315000&stadtteil=suelz&gemeinden=1'],
      [{ ort: 'Köln', stadtteil: 'Sülz', limit: 1 }, `/finanzamt?ort=${encodeURIComponent('Köln')}&stadtteil=${encodeURIComponent('Sülz')}&limit=1`],
      [{ ags: '05315', stadtteil: 'Sülz' }, `/finanzamt?ags=05315&stadtteil=${encodeURIComponent('Sülz')}`],
      // Tax numbers (rendered for their request alone): federal and written form, a wrong check digit, malformed.
      [{ steuernummer: '9181081508155' }, '/finanzamt?steuernummer=9181081508155'],
      [{ steuernummer: '181/815/08155', gemeinden: 1, limit: 5 }, `/finanzamt?steuernummer=${encodeURIComponent('181/815/08155')}&gemeinden=1&limit=5`],
      [{ steuernummer: '9181081508154' }, '/finanzamt?steuernummer=9181081508154'],
      [{ steuernummer: '91810815081557' }, '/finanzamt?steuernummer=91810815081557'],
    ];
    // Stored and rendered answers both among them.
    expect(tree.manifest.entries['/finanzamt?ags=05315000']).toBeDefined();
    expect(tree.manifest.entries['/finanzamt?ort=K%C3%B6ln&limit=5']).toBeUndefined();
    expect(tree.manifest.entries['/finanzamt?ags=05315000&stadtteil=S%C3%BClz']).toBeDefined();
    expect(tree.manifest.entries['/finanzamt?ags=05315000&stadtteil=suelz&gemeinden=1']).toBeUndefined();
    const res = await post(batch(...asked.map(([question]) => question)));
    const gets = await Promise.all(asked.map(([, path]) => get(path)));
    expect(gets.map((g) => g.status)).toEqual([200, 200, 200, 400, 200, 400, 400, 200, 400, 200, 200, 200, 200, 400, 200, 200, 400, 400]);
    // What each of the new GETs answers, so that the batch is compared with the answers meant.
    const bodies = gets.map((g) => JSON.parse(g.text) as { aemter?: { bufa_nr: string }[]; frage?: Record<string, unknown>; code?: string });
    expect(bodies.slice(10, 13).map((b) => b.aemter!.map((a) => a.bufa_nr))).toEqual([['5219'], ['5219'], ['5219']]);
    expect(bodies[13]!.code).toBe('bad_parameter');
    expect(bodies[14]!.frage).toMatchObject({ steuernummer: '9181081508155', steuernummer_bund: '9181081508155', bundesland: 'Bayern' });
    expect(bodies[15]!.frage).toMatchObject({ steuernummer: '181/815/08155', gemeinden: 1, limit: 5 });
    expect(bodies.slice(16).map((b) => b.code)).toEqual(['bad_steuernummer', 'bad_steuernummer']);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.body.equals(envelopeOf(gets))).toBe(true);
    expect(res.parsed(BatchResponse).antworten.map((a) => a.status)).toEqual(gets.map((g) => g.status));
    // Compressed as the caller accepts, the same envelope.
    for (const encoding of ['br', 'gzip'] as const) {
      const compressed = await post(batch(...asked.map(([question]) => question)), { 'accept-encoding': encoding });
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers.vary).toBe('Accept-Encoding');
      expect(decompressSync(compressed.body, encoding).equals(res.body)).toBe(true);
    }
  });

  it('answers a question whose values are not text (or integers for gemeinden and limit) with its own 400, without repeating them', async () => {
    const res = await post(batch({ ags: 5315000 }, { ags: '05', limit: 2.5 }, { ags: '05', gemeinden: null }, { ort: null }, { ags: '05', limit: 3 }, { ags: '05', limit: true }));
    const { antworten } = res.parsed(BatchResponse);
    expect(antworten.map((a) => a.status)).toEqual([400, 400, 400, 400, 200, 400]);
    for (const i of [0, 1, 2, 3, 5]) expect(ErrorResponse.parse(antworten[i]!.antwort).code).toBe('bad_parameter');
    expect(ErrorResponse.parse(antworten[2]!.antwort).detail).toBe('gemeinden muss true oder false, 0 oder 1 sein, als Zahl oder Text (erhalten: null).');
    expect(JSON.stringify(antworten[0])).not.toContain('5315000');
    expect(JSON.stringify(antworten[1])).not.toContain('2.5');
  });

  it('takes gemeinden as a JSON boolean too (issue 45, item 4): true as the GET\'s 1, false as its 0', async () => {
    const res = await post(batch({ ags: '05315000', gemeinden: true }, { plz: '50667', gemeinden: false }, { ort: 'Bonn', gemeinden: true, limit: 2 }));
    const gets = await Promise.all(['/finanzamt?ags=05315000&gemeinden=1', '/finanzamt?plz=50667&gemeinden=0', '/finanzamt?ort=Bonn&gemeinden=1&limit=2'].map(get));
    expect(gets.map((g) => g.status)).toEqual([200, 200, 200]);
    expect(res.body.equals(envelopeOf(gets))).toBe(true);
    expect(res.parsed(BatchResponse).antworten.map((a) => (a.antwort as { frage: { gemeinden: number } }).frage.gemeinden)).toEqual([1, 0, 1]);
  });

  it('takes up to 100 questions; the 101st refuses the batch with a code that says the limit', async () => {
    expect(BATCH_MAX_QUESTIONS).toBe(100);
    const full = await post(batch(...Array.from({ length: 100 }, (_, i) => ({ plz: tree.directory.plz[i]![0] }))));
    expect(full.status).toBe(200);
    expect(full.parsed(BatchResponse).anzahl).toBe(100);
    const over = await post(batch(...Array.from({ length: 101 }, () => ({ ags: '05315000' }))));
    expect(over.status).toBe(400);
    expect(code(over)).toBe('batch_too_large');
    expect(over.parsed(ErrorResponse).detail).toContain('100');
    expect(code(await post(batch()))).toBe('bad_batch');
  });

  it('refuses a body that is no batch: not JSON or not UTF-8 (bad_json), the wrong shape or nested (bad_batch)', async () => {
    const cases: [string | Buffer, string][] = [
      ['{"fragen": [{"ags": "05315000"}', 'bad_json'],
      [Buffer.concat([Buffer.from('{"fragen": [{"ort": "K'), Buffer.from([0xf6]), Buffer.from('ln"}]}')]), 'bad_json'],
      ['', 'bad_json'],
      ['[{"ags": "05315000"}]', 'bad_batch'],
      ['{"fragen": [{"ags": "05315000"}], "mehr": 1}', 'bad_batch'],
      ['{"fragen": ["05315000"]}', 'bad_batch'],
      ['{"fragen": [{"ags": {"wert": "05315000"}}]}', 'bad_batch'],
      [`{"fragen": ${'['.repeat(30_000)}${']'.repeat(30_000)}}`, 'bad_batch'],
    ];
    for (const [body, expected] of cases) {
      const res = await post(body);
      expect(res.status, String(body).slice(0, 40)).toBe(400);
      expect(code(res)).toBe(expected);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const addressed = await running.proxy.post('/finanzamt?ags=05315000', batch({ ags: '05315000' }), keyed());
    expect(code(addressed)).toBe('bad_batch');
  });

  it('takes JSON only (415), and UTF-8 only', async () => {
    const one = batch({ ags: '05315000' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx']) {
      const res = await post(one, { ...KEEP_ALIVE, 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(code(res)).toBe('unsupported_media_type');
      // Its body is not read, so the connection is not kept.
      expect(res.headers.connection).toBe('close');
    }
    expect((await running.proxy.post('/finanzamt', one, { ...keyed(), 'content-type': '' })).status).toBe(415);
    expect((await post(one, { 'content-type': 'Application/JSON; Charset="UTF-8"' })).status).toBe(200);
  });

  it('refuses a body over 64 KiB (413) unread when its length says so, and unfinished when it turns out so, and closes the connection', async () => {
    const big = await post(' '.repeat(64 * 1024 + 1), KEEP_ALIVE);
    expect(big.status).toBe(413);
    expect(code(big)).toBe('payload_too_large');
    expect(big.headers.connection).toBe('close');
    const streamed = await chunked(running.proxy.url, Array.from({ length: 8 }, () => ' '.repeat(16 * 1024)));
    expect(streamed.status).toBe(413);
    expect(code(streamed)).toBe('payload_too_large');
    expect((await post(`${batch({ ags: '05315000' })}${' '.repeat(60 * 1024)}`)).status).toBe(200);
  });

  it('answers nothing to a caller who goes away before its body is complete, and goes on serving', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${running.proxy.url}/finanzamt`, { method: 'POST', headers: { ...keyed(), 'content-type': 'application/json', 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"fragen": [', () => setTimeout(() => { req.destroy(); resolve(); }, 100));
      req.on('response', () => reject(new Error('answered an unfinished body')));
    });
    expect((await post(batch({ ags: '05315000' }))).status).toBe(200);
    expect((await running.proxy.get('/healthz')).status).toBe(200);
  });

  it('checks the key as a GET does, before the body: in the query or in both headers 400, missing or unknown 401, blocked 403', async () => {
    const broken = '{"fragen": [';
    // A key of this proxy's keys file, blocked there while it runs.
    const blocked = await issueKey(running.keysFile, 'batch-blocked');
    await cli(['keys', 'block', 'batch-blocked', '--keys-file', running.keysFile]);
    await eventually('the blocked key to be refused', async () => (await running.proxy.get('/finanzamt?ags=05315000', { 'x-api-key': blocked })).status === 403);
    const cases: [Record<string, string>, number, string][] = [
      [{ 'x-api-key': blocked }, 403, 'key_blocked'],
      [{ authorization: `Bearer ${blocked}` }, 403, 'key_blocked'],
      [{ 'x-api-key': 'fa_unknownunknownunknown' }, 401, 'key_unknown'],
      [{ 'x-api-key': `${running.key}x` }, 401, 'key_unknown'],
      [{ authorization: `Basic ${Buffer.from(`u:${running.key}`).toString('base64')}` }, 401, 'key_missing'],
      [{ 'x-api-key': running.key, authorization: `Bearer ${running.key}` }, 400, 'key_in_both_headers'],
    ];
    for (const [headers, status, expected] of cases) {
      const what = Object.keys(headers).join('+') + ` ${expected}`;
      const byGet = await running.proxy.get('/finanzamt?ags=05315000', headers);
      const byPost = await running.proxy.post('/finanzamt', broken, headers);
      expect([byGet.status, code(byGet)], what).toEqual([status, expected]);
      expect([byPost.status, code(byPost)], what).toEqual([status, expected]);
      expect(byPost.headers['www-authenticate'], what).toBe(byGet.headers['www-authenticate']);
      expect(byPost.headers['cache-control'], what).toBe('no-store');
      expect(byPost.text, what).not.toContain(running.key);
      expect(byPost.text, what).not.toContain(blocked);
    }
    // The key as Bearer alone is taken for a batch as for a GET.
    expect((await running.proxy.post('/finanzamt', batch({ ags: '05315000' }), { authorization: `Bearer ${running.key}` })).status).toBe(200);
    const inQuery = await running.proxy.post(`/finanzamt?apikey=${running.key}`, broken, keyed());
    expect(inQuery.status).toBe(400);
    expect(code(inQuery)).toBe('key_in_query');
    expect(inQuery.text).not.toContain(running.key);
    const missing = await running.proxy.post('/finanzamt', broken, KEEP_ALIVE);
    expect(missing.status).toBe(401);
    expect(code(missing)).toBe('key_missing');
    expect(missing.headers.connection).toBe('keep-alive');
    // A body not read (not JSON by its type) is not read to keep the connection either.
    const unread = await running.proxy.post('/finanzamt', broken, { ...KEEP_ALIVE, 'content-type': 'text/plain' });
    expect(unread.status).toBe(401);
    expect(unread.headers.connection).toBe('close');
  });

  it('is the only POST: elsewhere 405 with the methods of that path, which the preflight names too', async () => {
    for (const path of ['/finanzamt/2115', '/finanzamt/2115/bezirk', '/finanzaemter', '/healthz']) {
      const res = await running.proxy.post(path, batch({ ags: '05315000' }), keyed());
      expect(res.status, path).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
    const deleted = await running.proxy.get('/finanzamt', keyed(), 'DELETE');
    expect(deleted.status).toBe(405);
    expect(deleted.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    const preflight = await running.proxy.get('/finanzamt', { origin: 'https://example.org', 'access-control-request-method': 'POST' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(preflight.headers['access-control-allow-headers']).toContain('Content-Type');
    expect((await running.proxy.get('/finanzamt/2115', {}, 'OPTIONS')).headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
  });
});

describe('the rate limit of a batch', () => {
  const from = (address: string) => ({ 'x-api-key': limitedKey, 'x-forwarded-for': address });
  const questions = (n: number) => batch(...Array.from({ length: n }, () => ({ ags: '05315000' })));

  it('holds a full batch by default and counts each question; a batch over what is left is refused whole, spending nothing, until Retry-After', async () => {
    const address = '198.51.100.21';
    const full = await limited.post('/finanzamt', questions(BATCH_MAX_QUESTIONS), from(address));
    expect(full.status).toBe(200);
    expect(Number(full.headers['ratelimit-limit'])).toBe(SERVE_DEFAULTS.burst);
    const left = Number(full.headers['ratelimit-remaining']);
    expect(left).toBeLessThan(10);
    const refused = await limited.post('/finanzamt', questions(90), from(address));
    expect(refused.status).toBe(429);
    expect(code(refused)).toBe('rate_limited');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    // Nothing was spent: what is left did not go down.
    expect(Number(refused.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(left);
    // The rate limit comes first, before the key.
    expect((await limited.post('/finanzamt', questions(90), { 'x-forwarded-for': address })).status).toBe(429);
    await new Promise((r) => setTimeout(r, wait * 1000));
    const later = await limited.post('/finanzamt', questions(90), from(address));
    expect(later.status).toBe(200);
    expect(later.parsed(BatchResponse).anzahl).toBe(90);
  });

  it('logs a batch as one line with the number of its questions and none of their values', async () => {
    const address = '198.51.100.22';
    const res = await limited.post('/finanzamt', batch({ ort: 'Bergisch Gladbach' }, { plz: '51465' }, { ags: '0537802x' }), from(address));
    expect(res.status).toBe(200);
    let lines: Record<string, unknown>[] = [];
    await eventually('the access log line', async () => (lines = limited.logLines().filter((l) => l.msg === 'request' && l.address === address)).length > 0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'POST', path: '/finanzamt', question: null, status: 200, questions: 3 });
    const log = limited.logLines().map((l) => JSON.stringify(l)).join('\n');
    for (const value of ['Bergisch', '51465', '0537802x']) expect(log).not.toContain(value);
  });
});

/** POSTs `chunks` without a Content-Length (chunked transfer coding), as a client streaming its body does. */
function chunked(url: string, chunks: string[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/finanzamt`, { method: 'POST', headers: { ...keyed(), 'content-type': 'application/json' } }, (res) => {
      const body: Buffer[] = [];
      res.on('data', (c: Buffer) => body.push(c)).on('end', () => resolve(rawResponse(res.statusCode!, res.headers, Buffer.concat(body))));
    });
    // The proxy may stop reading and answer before the last chunk is written.
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}
