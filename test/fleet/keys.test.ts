// Key changes travel through Redis: two proxies on "different machines" (each its own keys file) follow one
// set of keys, and a change made on either side is in force on the other within a second, whether made with
// `finanzamt keys --redis` or only in the local keys file. Redis holds hashes, never keys.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../proxy/keys/keysFile.ts';
import { eventually } from '../support/http.ts';
import { cli, issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { PATH } from './burst.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

let redis: RedisServer;
let a: ProxyProcess;
let b: ProxyProcess;
let keysA: string;
let keysB: string;
let key: string;

beforeAll(async () => {
  redis = await startRedis();
  keysA = join(scratchDir(), 'keys.json');
  keysB = join(scratchDir(), 'keys.json');
  key = await issueKey(keysA, 'partner');
  await issueKey(keysB, 'only-on-b');
  const start = (keysFile: string) => startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--redis', redis.url] });
  [a, b] = await Promise.all([start(keysA), start(keysB)]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
});

const status = async (proxy: ProxyProcess) => (await proxy.get(PATH, { 'x-api-key': key })).status;

/** The time until `proxy` answers the key with `expected`; fails after one second. */
const inForceOn = (proxy: ProxyProcess, expected: number) => eventually(`status ${expected} from ${proxy.url}`, async () => await status(proxy) === expected, 1_000);

describe('keys across the fleet', () => {
  it('a key issued on one machine is accepted by a proxy whose keys file lacks it; Redis holds its hash only', async () => {
    expect(readFileSync(keysB, 'utf8')).not.toContain(hashKey(key));
    await inForceOn(b, 200);
    const client = new Redis(redis.url);
    try {
      const shared = (await client.get('finanzamt:keys'))!;
      expect(shared).toContain(hashKey(key));
      expect(shared).not.toContain(key);
      expect(JSON.parse(shared).keys.map((k: { name: string }) => k.name).sort()).toEqual(['only-on-b', 'partner']);
    } finally {
      client.disconnect();
    }
  });

  it('blocked with `keys block --redis` on one side, the key is refused by the other within a second', async () => {
    await cli(['keys', 'block', 'partner', '--keys-file', keysA, '--redis', redis.url]);
    await inForceOn(b, 403);
    expect(await status(a)).toBe(403);
  });

  it('unblocked in one keys file only, without --redis, the proxy reading that file passes it on', async () => {
    await cli(['keys', 'unblock', 'partner', '--keys-file', keysA]);
    await inForceOn(a, 200);
    await inForceOn(b, 200);
  });

  it('revoked with --redis from the machine whose file never had the key, it is refused everywhere', async () => {
    await cli(['keys', 'revoke', 'partner', '--keys-file', keysB, '--redis', redis.url]);
    await inForceOn(a, 401);
    await inForceOn(b, 401);
    // The command merged the fleet's keys into that machine's file before changing it.
    const records = JSON.parse(readFileSync(keysB, 'utf8')).keys;
    expect(records.find((k: { name: string }) => k.name === 'partner')).toMatchObject({ status: 'revoked', hash: hashKey(key) });
    const { stdout } = await cli(['keys', 'list', '--keys-file', keysA, '--redis', redis.url]);
    expect(stdout).toMatch(/revoked.*"partner"/);
  });
});
