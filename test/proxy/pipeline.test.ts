// The order of the request pipeline (proxy/handler.ts): rate limit → key in the query → preflight → health and
// docs → key → method → route and parameters → answer. Each check is shown to come before the next by a
// request that fails both. In process: the handler is called with real dependencies (the test tree's version
// loaded from disk, a keys file, a token bucket) through injected requests, without a listening server, as
// fastify tests its internals; test/proxy/api.request.test.ts and auth.test.ts cover the same over HTTP.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'light-my-request';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchResponse, ErrorResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import { AskedQuestions } from '../../proxy/cache/askedQuestions.ts';
import { addressResolver } from '../../proxy/rateLimit/clientAddress.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { createHandler } from '../../proxy/handler.ts';
import { addKey, setKeyStatus, writeKeysFile, type KeysFile } from '../../proxy/keys/keysFile.ts';
import { KeyStore } from '../../proxy/keys/keyStore.ts';
import { createLogs, type Logs } from '../../proxy/log.ts';
import { MemoryRateLimiter } from '../../proxy/rateLimit/rateLimiter.ts';
import { CurrentVersion } from '../../proxy/versions/currentVersion.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import type { VersionSource } from '../../proxy/versions/source.ts';
import { eventually, rawResponse } from '../support/http.ts';
import { testDist, testTree } from '../support/tree.ts';

const silent = pino({ level: 'silent' });
let scratch: string;
let keys: KeyStore;
let logs: Logs;
let loaded: CurrentVersion;
let empty: CurrentVersion;
let key: string;
let blocked: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'finanzamt-pipeline-'));
  let file: KeysFile = { format: 1, keys: [] };
  ({ file, key } = addKey(file, 'caller'));
  let record;
  ({ file, key: blocked, record } = addKey(file, 'blocked'));
  ({ file } = setKeyStatus(file, record.id, 'blocked'));
  await writeKeysFile(join(scratch, 'keys.json'), file);
  keys = new KeyStore(join(scratch, 'keys.json'), silent);
  await keys.start();
  logs = createLogs(join(scratch, 'access.log'));
  loaded = new CurrentVersion(localSource(testDist(), 2_000), new FileCache(16 << 20), silent);
  await loaded.check();
  // A tree with nothing published: the proxy before its first version.
  empty = new CurrentVersion(localSource(join(scratch, 'nothing'), 2_000), new FileCache(1 << 20), silent);
  await empty.check();
});

afterAll(() => {
  keys?.stop();
  logs?.flush();
  rmSync(scratch, { recursive: true, force: true });
});

/** A handler over the shared dependencies; `burst` requests per address before the limit. */
function handler(o: { burst?: number; versions?: CurrentVersion; logs?: Logs } = {}) {
  return createHandler({
    versions: o.versions ?? loaded,
    keys,
    limiter: new MemoryRateLimiter({ rate: 0.001, burst: o.burst ?? 1_000, maxClients: 100 }),
    clientAddress: addressResolver([]),
    dynamic: new DynamicAnswers(1 << 20),
    reads: null,
    asked: new AskedQuestions(),
    logs: o.logs ?? logs,
    metrics: null,
    now: Date.now,
  });
}

type Handler = ReturnType<typeof handler>;

async function ask(h: Handler, method: string, url: string, headers: Record<string, string> = {}, payload?: string) {
  const res = await inject(h, { method: method as 'GET', url, headers, payload, remoteAddress: '192.0.2.1' });
  return { status: res.statusCode, headers: res.headers, payload: res.rawPayload, body: rawResponse(res.statusCode, res.headers as IncomingHttpHeaders, res.rawPayload).parsed };
}

const keyed = () => ({ 'x-api-key': key });

describe('the request pipeline, in order', () => {
  it('limits the rate before anything else: a preflight, health and a request without a key all get 429', async () => {
    const h = handler({ burst: 1 });
    expect((await ask(h, 'GET', '/healthz')).status).toBe(200);
    for (const [method, url] of [['OPTIONS', '/finanzamt'], ['GET', '/healthz'], ['GET', '/finanzamt?apikey=x'], ['DELETE', '/nirgends']]) {
      const res = await ask(h, method!, url!);
      expect(res.status, `${method} ${url}`).toBe(429);
      expect(res.body(ErrorResponse).code).toBe('rate_limited');
      expect(res.headers['retry-after']).toBeDefined();
    }
  });

  it('answers a preflight before looking at the path or a key', async () => {
    const h = handler();
    for (const url of ['/finanzamt?ags=05315000', '/nirgends', '/healthz']) {
      const res = await ask(h, 'OPTIONS', url);
      expect(res.status, url).toBe(204);
      expect(res.payload.length).toBe(0);
    }
  });

  it('answers health and the docs without a key', async () => {
    const h = handler();
    expect((await ask(h, 'GET', '/healthz?stand=1')).status).toBe(200);
    expect((await ask(h, 'GET', '/openapi.json')).status).toBe(200);
    const refused = await ask(h, 'POST', '/healthz');
    expect(refused.status).toBe(405);
    expect(refused.body(ErrorResponse).code).toBe('method_not_allowed');
  });

  it('refuses a key in the query before asking for one in a header, and even beside a valid one', async () => {
    const h = handler();
    for (const headers of [{}, keyed()]) {
      const res = await ask(h, 'GET', '/finanzamt?ags=05315000&apikey=x', headers);
      expect(res.status).toBe(400);
      expect(res.body(ErrorResponse).code).toBe('key_in_query');
    }
  });

  it('refuses a key in the query on the paths that need none too, and on a preflight', async () => {
    const h = handler();
    for (const [method, url] of [['GET', '/healthz'], ['GET', '/openapi.json'], ['GET', '/docs'], ['OPTIONS', '/finanzamt']] as const) {
      const res = await ask(h, method, `${url}?apikey=x`);
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body(ErrorResponse).code).toBe('key_in_query');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('authenticates before the method and the path: 401 without a key, 403 for a blocked one', async () => {
    const h = handler();
    const missing = await ask(h, 'DELETE', '/nirgends');
    expect(missing.status).toBe(401);
    expect(missing.body(ErrorResponse).code).toBe('key_missing');
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="finanzamt"');
    expect((await ask(h, 'DELETE', '/nirgends', { 'x-api-key': 'fa_unknown' })).body(ErrorResponse).code).toBe('key_unknown');
    const forbidden = await ask(h, 'DELETE', '/nirgends', { 'x-api-key': blocked });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body(ErrorResponse).code).toBe('key_blocked');
  });

  it('checks the method before the path', async () => {
    const res = await ask(handler(), 'DELETE', '/nirgends', keyed());
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('checks the path and the parameters before the answer is looked for', async () => {
    const h = handler({ versions: empty });
    const unknown = await ask(h, 'GET', '/nirgends', keyed());
    expect(unknown.status).toBe(404);
    expect(unknown.body(ErrorResponse).code).toBe('not_found');
    const bad = await ask(h, 'GET', '/finanzamt?ags=x', keyed());
    expect(bad.status).toBe(400);
    expect(bad.body(ErrorResponse).code).toBe('bad_parameter');
    // Only a usable question finds that no version is loaded.
    const unavailable = await ask(h, 'GET', '/finanzamt?ags=05315000', keyed());
    expect(unavailable.status).toBe(503);
    expect(unavailable.body(ErrorResponse).code).toBe('unavailable');
  });

  it('answers a stored question with its stored body and a rendered one by the renderer', async () => {
    const h = handler();
    const tree = testTree();
    const stored = await ask(h, 'GET', '/finanzamt/2115', keyed());
    expect(stored.status).toBe(200);
    expect(stored.payload.equals(tree.file('/finanzamt/2115'))).toBe(true);
    expect(stored.headers.etag).toBe(tree.manifest.entries['/finanzamt/2115']!.etag);
    expect(stored.body(OfficeResponse).amt.bufa_nr).toBe('2115');
    const rendered = await ask(h, 'GET', '/finanzamt?ort=K%C3%B6ln', keyed());
    expect(rendered.status).toBe(200);
    expect(rendered.body(LookupResponse).frage.ort).toBe('Köln');
    const unknownOffice = await ask(h, 'GET', '/finanzamt/9999', keyed());
    expect(unknownOffice.status).toBe(404);
    expect(unknownOffice.body(ErrorResponse).code).toBe('not_found');
  });
});

describe('a batch', () => {
  it('is answered from the version it began with, though another is put in place while its answers are read', async () => {
    const source = localSource(testDist(), 2_000);
    // The switch happens as the batch reads its first stored body: the rest is read after it.
    const switching: VersionSource = {
      ...source,
      readObject: (read) => {
        versions.current = null;
        return source.readObject(read);
      },
    };
    const versions = new CurrentVersion(switching, new FileCache(16 << 20), silent);
    await versions.check();
    const fragen = [{ ags: '05315000' }, { plz: '50667' }, { ort: 'Köln' }, { ags: '01001000' }, { ags: 'x' }];
    const res = await ask(handler({ versions }), 'POST', '/finanzamt', { ...keyed(), 'content-type': 'application/json' }, JSON.stringify({ fragen }));
    expect(versions.current).toBeNull();
    expect(res.status).toBe(200);
    const tree = testTree();
    const batch = res.body(BatchResponse);
    expect(batch.stand).toBe(tree.manifest.stand);
    expect(batch.antworten.map((a) => a.status)).toEqual([200, 200, 200, 200, 400]);
    expect(batch.antworten[3]!.antwort).toEqual(tree.json('/finanzamt?ags=01001000', LookupResponse));
    // A request after the switch finds no version.
    expect((await ask(handler({ versions }), 'GET', '/finanzamt?ags=05315000', keyed())).status).toBe(503);
  });
});

/** Sends `requests` through a handler with a log of its own; returns the answers and, once written, the log. */
async function askLogged(requests: [method: string, url: string, headers?: Record<string, string>, payload?: string | Buffer][]) {
  const file = join(scratch, `hostile-${randomBytes(4).toString('hex')}.log`);
  const own = createLogs(file);
  const h = handler({ logs: own });
  const answers = [];
  for (const [method, url, headers, payload] of requests) {
    const res = await inject(h, { method: method as 'GET', url, headers, payload, remoteAddress: '192.0.2.1' });
    answers.push({ status: res.statusCode, headers: res.headers, text: res.payload, code: (JSON.parse(res.payload) as { code?: string }).code });
  }
  let log = '';
  await eventually('the access log', async () => {
    own.flush();
    try {
      log = readFileSync(file, 'utf8');
    } catch {
      return false; // not created yet
    }
    return log.split('\n').filter(Boolean).length >= requests.length;
  }, 5_000);
  return { answers, log };
}

/** A key as `finanzamt keys add` makes one, whose random part holds a digit (as 999 in 1000 do). */
function someKey(): string {
  for (;;) {
    const key = `fa_${randomBytes(32).toString('base64url')}`;
    if (/[0-9]/.test(key.slice(3))) return key;
  }
}

describe('hostile input in the address', () => {
  it('refuses a key in the query in any case of its prefix, without it, or split by a space; never echoes or logs it', async () => {
    const k = someKey();
    const body = k.slice(3);
    const sent = [`FA_${body}`, `Fa_${body}`, body, `${k.slice(0, 20)} ${k.slice(20)}`, `${body.slice(0, 21)} ${body.slice(21)}`];
    const { answers, log } = await askLogged(sent.flatMap((value) => [
      ['GET', `/finanzamt?ort=${encodeURIComponent(value)}`, keyed()] as [string, string, Record<string, string>],
      ['GET', `/finanzamt?${encodeURIComponent(value)}=1`, keyed()] as [string, string, Record<string, string>],
    ]).concat([['GET', `/finanzamt/FA_${body}`, keyed()], ['GET', `/finanzamt/${body.slice(0, 21)}%20${body.slice(21)}`, keyed()]]));
    for (const [i, a] of answers.entries()) {
      expect(a.status, String(i)).toBe(400);
      if (i < sent.length * 2) expect(a.code, String(i)).toBe('key_in_query');
      expect(a.headers['cache-control']).toBe('no-store');
    }
    // No piece of the key of eight characters or more, in any answer or in the log.
    const pieces = Array.from({ length: body.length - 7 }, (_, i) => body.slice(i, i + 8));
    for (const text of [...answers.map((a) => a.text), log]) {
      expect(pieces.filter((p) => text.includes(p))).toEqual([]);
    }
  });

  it('refuses a key written with another separator or in standard base64; never echoes or logs it', async () => {
    const k = someKey();
    const body = k.slice(3);
    const standard = Buffer.from(body, 'base64url').toString('base64');
    const sent = [`${body.slice(0, 20)}.${body.slice(20)}`, `${body.slice(0, 20)}/${body.slice(20)}`, `${body.slice(0, 15)};${body.slice(15, 30)}·${body.slice(30)}`, standard, `fa_${standard}`];
    const { answers, log } = await askLogged([
      ...sent.flatMap((value) => [
        ['GET', `/finanzamt?ort=${encodeURIComponent(value)}`, keyed()] as [string, string, Record<string, string>],
        ['GET', `/finanzaemter?${encodeURIComponent(value)}=1`, keyed()] as [string, string, Record<string, string>],
      ]),
      // Standard base64 pasted into an address as it is: its `+` is read as a space, its `/` stays.
      ['GET', `/finanzamt?ort=${standard.replace(/=/g, '%3D')}`, keyed()],
    ]);
    for (const [i, a] of answers.entries()) {
      expect(a.status, String(i)).toBe(400);
      expect(a.code, String(i)).toBe('key_in_query');
      expect(a.headers['cache-control']).toBe('no-store');
    }
    // No piece of the key of eight characters or more, in either alphabet, in any answer or in the log.
    const pieces = [body, standard].flatMap((form) => Array.from({ length: form.length - 7 }, (_, i) => form.slice(i, i + 8)));
    for (const text of [...answers.map((a) => a.text), log]) {
      expect(pieces.filter((p) => text.includes(p) || text.includes(encodeURIComponent(p)))).toEqual([]);
    }
  });

  it('refuses a tax number in any text parameter and as a parameter\'s name, no-store, and never echoes or logs it', async () => {
    const { answers, log } = await askLogged([
      ['GET', `/finanzamt?ort=${encodeURIComponent('181/815/08155')}`, keyed()],
      ['GET', '/finanzamt?ort=K%C3%B6ln%209181081508155', keyed()],
      ['GET', '/finanzamt?ags=05315000&stadtteil=9181081508155', keyed()],
      ['GET', `/finanzaemter?name=${encodeURIComponent('181 815 08155')}`, keyed()],
      ['GET', '/finanzaemter?bundesland=9181081508155', keyed()],
      ['GET', '/finanzamt?9181081508155=1', keyed()],
      ['GET', '/finanzaemter?ags=05315000&9181081508155', keyed()],
    ]);
    for (const [i, a] of answers.entries()) {
      expect(a.status, String(i)).toBe(400);
      expect(a.code, String(i)).toBe('bad_parameter');
      expect(a.headers['cache-control'], String(i)).toBe('no-store');
    }
    expect(answers[0]!.text).toContain('ort enthält zehn oder mehr Ziffern in Folge wie eine Steuernummer');
    for (const text of [...answers.map((a) => a.text), log]) expect(text).not.toMatch(/815.?0815|08155/);
  });

  it('never echoes or logs a tax number sent in the path or as another parameter, and lets no shared cache keep the answer', async () => {
    const { answers, log } = await askLogged([
      ['GET', '/finanzamt/9181081508155', keyed()],
      ['GET', '/finanzamt/91%2F810%2F81508155/bezirk', keyed()],
      ['GET', '/finanzamt?ags=9181081508155', keyed()],
    ]);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.headers['cache-control']).toBe('no-store');
    }
    for (const text of [...answers.map((a) => a.text), log]) expect(text).not.toMatch(/81508155|810%2F815/);
  });

  it('refuses C1 controls, format characters of every plane and line separators in free text, and echoes none', async () => {
    // The last three lie beyond the Basic Multilingual Plane: tag characters (U+E0001, U+E0041) and a musical format character.
    const characters = ['\u0085', '\u009b', '\u202e', '\u200d', '\ufeff', '\u2028', '\u00ad', '\u2066', '\u{E0001}', '\u{E0041}', '\u{1D173}'];
    const { answers } = await askLogged(characters.flatMap((c) => [
      ['GET', `/finanzamt?ort=${encodeURIComponent(`Kö${c}ln`)}`, keyed()] as [string, string, Record<string, string>],
      ['GET', `/finanzamt?ags=05315000&stadtteil=${encodeURIComponent(`S${c}ülz`)}`, keyed()] as [string, string, Record<string, string>],
      ['GET', `/finanzaemter?name=${encodeURIComponent(`Köln${c}`)}`, keyed()] as [string, string, Record<string, string>],
    ]));
    for (const [i, a] of answers.entries()) {
      expect(a.status, JSON.stringify(characters[Math.floor(i / 3)])).toBe(400);
      expect(a.code).toBe('bad_parameter');
      for (const c of characters) expect(a.text).not.toContain(c);
    }
  });

  it('refuses a % that is no escape rather than take it literally', async () => {
    const { answers } = await askLogged([['GET', '/finanzamt?ort=K%zzln', keyed()], ['GET', '/finanzamt?ort=K%C3%B6ln%', keyed()]]);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.code).toBe('bad_parameter');
    }
  });
});

describe('hostile batches', () => {
  const json = { ...{ 'content-type': 'application/json' } };
  it('refuses a question naming a parameter twice, as its GET is refused, and a __proto__ anywhere', async () => {
    const get = await ask(handler(), 'GET', '/finanzamt?ags=05315000&ags=01001000', keyed());
    expect(get.status).toBe(400);
    const { answers } = await askLogged([
      ['POST', '/finanzamt', { ...keyed(), ...json }, '{"fragen": [{"ags": "05315000"}, {"ags": "05315000", "ags": "01001000"}]}'],
      ['POST', '/finanzamt', { ...keyed(), ...json }, '{"fragen": [{"ags": "05315000", "__proto__": {"ags": "01001000"}}]}'],
      ['POST', '/finanzamt', { ...keyed(), ...json }, '{"fragen": [{"ags": "05315000"}], "__proto__": {"x": 1}}'],
      ['POST', '/finanzamt', { ...keyed(), ...json }, '{"fragen": [{"ags": "05315000"}], "fragen": [{"ags": "01001000"}]}'],
    ]);
    expect(answers.map((a) => [a.status, a.code])).toEqual([[400, 'bad_batch'], [400, 'bad_batch'], [400, 'bad_batch'], [400, 'bad_batch']]);
    expect(answers[0]!.text).toContain('fragen[1]');
  });

  it('answers a compressed body 415, unread', async () => {
    const body = gzipSync(JSON.stringify({ fragen: [{ ags: '05315000' }] }));
    const { answers } = await askLogged([['POST', '/finanzamt', { ...keyed(), ...json, 'content-encoding': 'gzip' }, body]]);
    expect(answers[0]!.status).toBe(415);
    expect(answers[0]!.code).toBe('unsupported_media_type');
  });

  it('takes an empty X-API-Key for a missing key', async () => {
    const { answers } = await askLogged([['GET', '/finanzamt?ags=05315000', { 'x-api-key': '' }]]);
    expect(answers[0]!.code).toBe('key_missing');
  });
});
