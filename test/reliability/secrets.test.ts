// No access key leaves the proxy: whatever a caller does with a key (valid, blocked, revoked or unknown; in
// a header, the query string or the path), no response and nothing the proxy writes (log file, stdout,
// stderr) carries it, not even in part. And the keys file on disk holds only hashes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../proxy/keys/keysFile.ts';
import { request, type RawResponse } from '../support/http.ts';
import { cli, issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { rememberKey } from '../support/record.ts';
import { testDist } from '../support/tree.ts';
import { rawRequest } from './rawHttp.ts';

/** Pieces this long of a key's random part count as a leak: 96 bits, more than anyone may learn of a key. */
const PIECE = 16;

let proxy: ProxyProcess;
let keysFile: string;
const keys: Record<'valid' | 'blocked' | 'revoked' | 'unknown', string> = { valid: '', blocked: '', revoked: '', unknown: generateKey() };
/** Everything that came back to a caller: status line, headers and body of every response. */
const answers: string[] = [];

beforeAll(async () => {
  rememberKey(keys.unknown);
  keysFile = join(scratchDir(), 'keys.json');
  keys.valid = await issueKey(keysFile, 'valid');
  keys.blocked = await issueKey(keysFile, 'blocked');
  keys.revoked = await issueKey(keysFile, 'revoked');
  await cli(['keys', 'block', 'blocked', '--keys-file', keysFile]);
  await cli(['keys', 'revoke', 'revoked', '--keys-file', keysFile]);
  proxy = await startProxy({ keysFile, args: ['--dist', testDist('saarland'), ...UNLIMITED] });
});

afterAll(async () => {
  await proxy?.stop();
});

function record(res: RawResponse): RawResponse {
  answers.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
  return res;
}

/** Every way a caller might send `key`, proper or not. */
function misuses(key: string): { path: string; headers: Record<string, string>; method?: string }[] {
  const header = { 'x-api-key': key };
  return [
    { path: '/finanzamt/2115', headers: header },
    { path: '/finanzamt/2115', headers: { authorization: `Bearer ${key}` } },
    { path: '/finanzamt/2115', headers: { authorization: `Basic ${key}` } },
    { path: '/finanzamt/2115', headers: { authorization: key } },
    { path: '/finanzamt/2115', headers: { 'x-api-key': key, authorization: `Bearer ${key}` } },
    { path: '/finanzamt/2115', headers: { 'x-api-key': `${key} ${key}` } },
    { path: '/finanzamt/2115', headers: header, method: 'POST' },
    { path: '/finanzamt/2115', headers: header, method: 'HEAD' },
    { path: '/finanzamt/2115', headers: { ...header, 'if-none-match': key, 'accept-encoding': key, 'x-forwarded-for': key } },
    ...['key', 'apikey', 'api_key', 'token', 'access_token', 'ags', 'plz', 'ort', 'limit', 'bundesland', 'x', key].flatMap((name) => [
      { path: `/finanzamt?${name}=${key}`, headers: {} },
      { path: `/finanzamt?${name}=${key}`, headers: header },
      { path: `/finanzaemter?${name}=${encodeURIComponent(key)}`, headers: header },
    ]),
    ...[`/finanzamt/${key}`, `/finanzamt/${key}/bezirk`, `/${key}`, `/docs/${key}`, `/finanzamt/2115/${key}`, `/healthz/${key}`].flatMap((path) => [
      { path, headers: {} },
      { path, headers: header },
    ]),
  ];
}

describe('keys never leave the proxy', () => {
  it('sends every key in every place, and gets answers (never a 5xx)', async () => {
    for (const [kind, key] of Object.entries(keys)) {
      for (const m of misuses(key)) {
        const res = record(await request(`${proxy.url}${m.path}`, { method: m.method, headers: m.headers }));
        expect(res.status, `${kind} ${m.method ?? 'GET'} ${m.path}`).toBeLessThan(500);
      }
      // And raw, for what a client library would normalise: a key in an absolute URL and after a fragment.
      for (const target of [`http://${key}@127.0.0.1/finanzamt/2115`, `/finanzamt/2115#${key}`, `/finanzamt?ags=1&${key}`]) {
        const raw = await rawRequest(proxy.url, `GET ${target} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${keys.valid}\r\nConnection: close\r\n\r\n`);
        answers.push(`${raw.status} ${JSON.stringify(raw.headers)} ${raw.body.toString('latin1')}`);
      }
    }
    // Sanity: the keys were really in force as their kinds say.
    const status = async (key: string) => (await request(`${proxy.url}/finanzamt/2115`, { headers: { 'x-api-key': key } })).status;
    expect([await status(keys.valid), await status(keys.blocked), await status(keys.revoked), await status(keys.unknown)]).toEqual([200, 403, 401, 401]);
  });

  it('no response carries any key, whole or in part', () => {
    // The answers of the test above, every response to every misuse.
    expect(answers.length).toBeGreaterThan(200);
    for (const [kind, key] of Object.entries(keys)) {
      for (const answer of answers) expect.soft(leaks(answer, key), `${kind} key in: ${answer.slice(0, 800)}`).toBe(false);
    }
  });

  it('nothing the proxy wrote (log file, stdout, stderr) carries any key', async () => {
    await proxy.stop();
    const written = `${readFileSync(proxy.logFile, 'utf8')}\n${proxy.output()}`;
    // The requests above are in the log (so the check is not vacuous).
    expect(written.split('\n').filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThan(100);
    for (const [kind, key] of Object.entries(keys)) expect(leaks(written, key), `${kind} key in the proxy's output`).toBe(false);
  });

  it('the keys file holds hashes only', () => {
    const file = readFileSync(keysFile, 'utf8');
    for (const [kind, key] of Object.entries(keys)) expect(leaks(file, key), `${kind} key in the keys file`).toBe(false);
    expect(JSON.parse(file).keys).toHaveLength(3);
  });
});

/** Whether `text` holds `key` or any PIECE characters of its random part, raw or percent-encoded. */
function leaks(text: string, key: string): boolean {
  const random = key.slice(3);
  for (let i = 0; i + PIECE <= random.length; i++) {
    const piece = random.slice(i, i + PIECE);
    if (text.includes(piece) || text.includes(encodeURIComponent(piece))) return true;
  }
  return false;
}
