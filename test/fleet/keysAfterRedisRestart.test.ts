// A block made with `keys block --redis` from a machine that runs no proxy (its keys file never held the key) lives
// in Redis and in the proxies that heard of it. When Redis comes back empty, the proxies refill it with the newest
// record they have seen, so the block survives: a proxy started afterwards, whose keys file still says active,
// refuses the key too.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/http.ts';
import { cli, issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { PATH } from './burst.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

let redis: RedisServer;
const proxies: ProxyProcess[] = [];
let keysFile: string;
let key: string;

const start = async () => {
  const proxy = await startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--redis', redis.url] });
  proxies.push(proxy);
  return proxy;
};
const status = async (proxy: ProxyProcess) => (await proxy.get(PATH, { 'x-api-key': key })).status;

beforeAll(async () => {
  redis = await startRedis();
  keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'partner');
});

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.stop()));
  await redis?.stop();
});

describe('a block across a restart of Redis without persistence', () => {
  it('is re-shared by the proxies that saw it, and refused by a proxy started after', async () => {
    const serving = await start();
    expect(await status(serving)).toBe(200);
    // An operator's workstation: a keys file of its own, no proxy.
    await cli(['keys', 'block', 'partner', '--keys-file', join(scratchDir(), 'keys.json'), '--redis', redis.url]);
    await eventually('the block on the serving proxy', async () => (await status(serving)) === 403, 2_000);

    await redis.stop();
    await redis.start();
    // The serving proxy reconnects and shares again; its file still says active.
    await eventually('the block back in Redis', async () => {
      const { stdout } = await cli(['keys', 'list', '--keys-file', join(scratchDir(), 'keys.json'), '--redis', redis.url]);
      return /blocked.*"partner"/.test(stdout);
    }, 10_000);
    const late = await start();
    expect(await status(late)).toBe(403);
    expect(await status(serving)).toBe(403);
  });
});
