// Key changes through the fleet are ordered by how many changes a record has been through, not by the clocks of the
// machines that made them: after a machine whose clock is a day ahead unblocks a key, a block from a machine with a
// correct clock takes effect at once, every time. And `keys list` says what the fleet says: with --redis the fleet's
// status, marking where this machine's file differs; without it, that the list is the file's alone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/http.ts';
import { cliAhead } from '../support/keysCommands/processes.ts';
import { cli, issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { PATH } from './burst.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

const DAY_MS = 86_400_000;
const ROUNDS = 2;

let redis: RedisServer;
let proxy: ProxyProcess;
/** The keys file of the machine that runs the proxy, whose clock is right. */
let keysFile: string;
/** The keys file of a workstation whose clock is a day ahead. */
let aheadFile: string;
let key: string;

beforeAll(async () => {
  redis = await startRedis();
  keysFile = join(scratchDir(), 'keys.json');
  aheadFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'partner');
  proxy = await startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--redis', redis.url] });
});

afterAll(async () => {
  await proxy?.stop();
  await redis?.stop();
});

const inForce = (expected: number) => eventually(`status ${expected}`, async () => (await proxy.get(PATH, { 'x-api-key': key })).status === expected, 2_000);
const keys = (command: string[], file: string) => [...command, '--keys-file', file, '--redis', redis.url];

describe('key changes across machines whose clocks differ', () => {
  it(`a block from a correct clock takes effect after a machine a day ahead unblocked the key (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await cli(keys(['keys', 'block', 'partner'], keysFile));
      await inForce(403);
      await cliAhead(DAY_MS, keys(['keys', 'unblock', 'partner'], aheadFile));
      await inForce(200);
    }
    const { stdout } = await cli(keys(['keys', 'block', 'partner'], keysFile));
    expect(stdout).toMatch(/blocked .*"partner"/);
    await inForce(403);
  }, 120_000);

  it('keys list says what the fleet says with --redis, and without it that the list is the file\'s alone', async () => {
    // The fleet has the key blocked; the workstation's file still says active, as it left it.
    const fleet = await cli(keys(['keys', 'list'], aheadFile));
    expect(fleet.stdout).toContain(`blocked  created`);
    expect(fleet.stdout).toMatch(new RegExp(`"partner"  \\(active in ${aheadFile}\\)\\n$`));
    const file = await cli(['keys', 'list', '--keys-file', aheadFile]);
    expect(file.stdout).toMatch(/active .*"partner"\n$/);
    expect(file.stderr).toBe(`the keys as ${aheadFile} has them; proxies that share keys through Redis may hold others (a key blocked from another machine shows active here): list the fleet's with --redis URL\n`);
  });
});
