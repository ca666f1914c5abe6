// Section 5 through the real proxy and the real `finanzamt keys` commands: where the key may come from,
// 401/403, and changes to the keys file taking effect in the running proxy without a restart.
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../core/model.ts';
import { eventually } from '../support/http.ts';
import { cli, issueKey, proxyForFile, type ProxyProcess } from '../support/proxy.ts';
import { rememberKey } from '../support/record.ts';

const PATH = '/finanzamt/2115';
const running = proxyForFile('alice', 'saarland');
let proxy: ProxyProcess;
let keysFile: string;
let key: string;
const issued: string[] = [];

beforeAll(() => {
  ({ proxy, keysFile, key } = running);
  issued.push(key);
});

const statusWith = async (k: string) => (await proxy.get(PATH, { 'x-api-key': k })).status;

describe('where the key comes from', () => {
  it('accepts the key in X-API-Key or as Authorization: Bearer', async () => {
    expect(await statusWith(key)).toBe(200);
    expect((await proxy.get(PATH, { authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await proxy.get(PATH, { authorization: `bearer  ${key}` })).status).toBe(200);
  });

  it('rejects a key in the query string with 400, even next to a valid header', async () => {
    for (const param of ['key', 'api_key', 'apikey', 'token', 'ACCESS_TOKEN', 'x-api-key']) {
      for (const headers of [{}, { 'x-api-key': key }] as Record<string, string>[]) {
        const res = await proxy.get(`${PATH}?${param}=${key}`, headers);
        expect(res.status, param).toBe(400);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.parsed(ErrorResponse).code).toBe('key_in_query');
        expect(res.text).not.toContain(key);
      }
    }
  });

  it('answers 401 with WWW-Authenticate for a missing, unknown or malformed key', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'key_missing'], [{ 'x-api-key': 'fa_unknown' }, 'key_unknown'], [{ 'x-api-key': '' }, 'key_missing'], [{ 'x-api-key': '  ' }, 'key_missing'],
      [{ authorization: `Basic ${Buffer.from(`u:${key}`).toString('base64')}` }, 'key_missing'],
      [{ authorization: 'Bearer' }, 'key_missing'], [{ 'x-api-key': `${key}x` }, 'key_unknown'],
    ];
    for (const [headers, code] of cases) {
      const res = await proxy.get(PATH, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.parsed(ErrorResponse)).toEqual({ detail: expect.any(String), code, stand: expect.stringMatching(/^\d\d\.\d\d\.\d{4}$/) });
    }
  });

  it('answers 400 when the key comes in both headers', async () => {
    const res = await proxy.get(PATH, { 'x-api-key': key, authorization: `Bearer ${key}` });
    expect(res.status).toBe(400);
    expect(res.parsed(ErrorResponse).code).toBe('key_in_both_headers');
  });

  it('needs no key for /healthz and preflight, but for everything else, including unknown paths', async () => {
    expect((await proxy.get('/healthz')).status).toBe(200);
    expect((await proxy.get(PATH, {}, 'OPTIONS')).status).toBe(204);
    expect((await proxy.get('/nope')).status).toBe(401);
    expect((await proxy.get(PATH, {}, 'POST')).status).toBe(401);
  });
});

describe('keys managed while the proxy runs', () => {
  it('blocks (403), unblocks and revokes (401) a key within a second, without restart', async () => {
    const bob = await issueKey(keysFile, 'bob');
    issued.push(bob);
    expect(await eventually('a new key to work', async () => (await statusWith(bob)) === 200)).toBeLessThan(1_000);

    await cli(['keys', 'block', 'bob', '--keys-file', keysFile]);
    expect(await eventually('the blocked key to get 403', async () => (await statusWith(bob)) === 403)).toBeLessThan(1_000);
    const blocked = await proxy.get(PATH, { 'x-api-key': bob });
    expect(blocked.parsed(ErrorResponse).code).toBe('key_blocked');
    expect(blocked.headers['cache-control']).toBe('no-store');
    expect(await statusWith(key)).toBe(200);

    await cli(['keys', 'unblock', 'bob', '--keys-file', keysFile]);
    await eventually('the unblocked key to work', async () => (await statusWith(bob)) === 200);

    const { stdout } = await cli(['keys', 'list', '--keys-file', keysFile]);
    const bobId = /^(k_[0-9a-f]{12}) .*"bob"$/m.exec(stdout)![1]!;
    await cli(['keys', 'revoke', bobId, '--keys-file', keysFile]);
    await eventually('the revoked key to get 401', async () => (await statusWith(bob)) === 401);
    await expect(cli(['keys', 'unblock', bobId, '--keys-file', keysFile])).rejects.toThrow(/revoked/);
  });

  it('keeps the last good keys while the keys file is invalid, and applies it once it is fixed', async () => {
    const good = readFileSync(keysFile, 'utf8');
    const carol = await issueKey(keysFile, 'carol');
    issued.push(carol);
    await eventually('carol to work', async () => (await statusWith(carol)) === 200);
    const withCarol = readFileSync(keysFile, 'utf8');

    const rejections = () => proxy.logLines().filter((l) => l.msg === 'keys file rejected, keeping the previous keys').length;
    for (const broken of ['{ "format": 1, "keys": [', JSON.stringify({ format: 2, keys: [] }), '']) {
      const before = rejections();
      writeFileSync(`${keysFile}.tmp`, broken);
      renameSync(`${keysFile}.tmp`, keysFile);
      await eventually('the rejection to be logged', async () => rejections() > before);
      expect(await statusWith(carol)).toBe(200);
      expect(await statusWith(key)).toBe(200);
    }

    writeFileSync(`${keysFile}.tmp`, good);
    renameSync(`${keysFile}.tmp`, keysFile);
    await eventually('the fixed file (without carol) to apply', async () => (await statusWith(carol)) === 401);
    expect(await statusWith(key)).toBe(200);
    writeFileSync(keysFile, withCarol);
    await eventually('carol to be back', async () => (await statusWith(carol)) === 200);
  });
});

describe('what is stored and logged', () => {
  it('stores only hashes, lists no keys, and prints a new key once as the last line', async () => {
    const file = readFileSync(keysFile, 'utf8');
    const { stdout: list } = await cli(['keys', 'list', '--keys-file', keysFile]);
    const { stdout: added } = await cli(['keys', 'add', '--name', 'dave', '--keys-file', keysFile]);
    const dave = added.trimEnd().split('\n').at(-1)!;
    issued.push(dave);
    rememberKey(dave);
    expect(dave).toMatch(/^fa_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(keysFile, 'utf8')).not.toContain(dave);
    for (const k of issued.slice(0, -1)) {
      expect(file).not.toContain(k);
      expect(list).not.toContain(k);
    }
    expect(list).not.toMatch(/[0-9a-f]{64}/);
    await expect(cli(['keys', 'add', '--name', 'dave', '--keys-file', keysFile])).rejects.toThrow(/exists already/);
  });

  it('writes no key into any log line, even one sent in the query or the path', async () => {
    await proxy.get(`/finanzamt?ags=10041100&key=${key}`);
    await proxy.get(`/finanzamt/${key}`, { 'x-api-key': key });
    await proxy.get(`/finanzamt?ort=${key}`, { 'x-api-key': key });
    await proxy.get(PATH, { authorization: `Bearer ${key}` });
    // The log is written in batches: a request of its own, sent last, marks that the four above are in it.
    await proxy.get('/end-of-the-key-requests');
    await eventually('the requests to be logged', async () => proxy.logLines().some((l) => l.path === '/end-of-the-key-requests'));
    const log = readFileSync(proxy.logFile, 'utf8');
    expect(log).toContain('"status":400');
    for (const k of issued) {
      expect(log).not.toContain(k);
      expect(log).not.toContain(k.slice(3, 20));
    }
    expect(proxy.output()).not.toContain(key);
  });
});
