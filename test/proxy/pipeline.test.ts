// The order of the request pipeline (proxy/handler.ts): rate limit → preflight → health and docs → key in the
// query → key → method → route and parameters → answer. Each check is shown to come before the next by a
// request that fails both. In process: the handler is called with real dependencies (the test tree's version
// loaded from disk, a keys file, a token bucket) through injected requests, without a listening server, as
// fastify tests its internals; test/proxy/api.test.ts and auth.test.ts cover the same over HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
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
import { FileCache } from '../../proxy/cache/fileCache.ts';
import { createHandler } from '../../proxy/handler.ts';
import { addKey, setKeyStatus, writeKeysFile, type KeysFile } from '../../proxy/keys/keysFile.ts';
import { KeyStore } from '../../proxy/keys/keyStore.ts';
import { createLogs, type Logs } from '../../proxy/log.ts';
import { MemoryRateLimiter } from '../../proxy/rateLimit/rateLimiter.ts';
import { CurrentVersion } from '../../proxy/versions/currentVersion.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import type { VersionSource } from '../../proxy/versions/source.ts';
import { rawResponse } from '../support/http.ts';
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
function handler(o: { burst?: number; versions?: CurrentVersion } = {}) {
  return createHandler({
    versions: o.versions ?? loaded,
    keys,
    limiter: new MemoryRateLimiter({ rate: 0.001, burst: o.burst ?? 1_000, maxClients: 100 }),
    clientAddress: addressResolver([]),
    dynamic: new DynamicAnswers(1 << 20),
    reads: null,
    asked: new AskedQuestions(),
    logs,
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

  it('answers a preflight before looking at the path, the query or a key', async () => {
    const h = handler();
    for (const url of ['/finanzamt?apikey=fa_x', '/nirgends', '/healthz']) {
      const res = await ask(h, 'OPTIONS', url);
      expect(res.status, url).toBe(204);
      expect(res.payload.length).toBe(0);
    }
  });

  it('answers health and the docs without a key, before the query is looked at', async () => {
    const h = handler();
    expect((await ask(h, 'GET', '/healthz?apikey=x')).status).toBe(200);
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
      readObject: (name, path, encoding) => {
        versions.current = null;
        return source.readObject(name, path, encoding);
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
