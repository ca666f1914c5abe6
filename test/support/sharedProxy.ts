// One proxy in process per worker and test tree, shared by the files of the vitest project `request`
// (vitest.config.ts). Those files run one after another in a worker that keeps its modules, so a tree is parsed
// once per worker rather than once per file (about 2 s of CPU and 276 MB each time). The proxy runs with the flags
// no file changes, UNLIMITED above all, so that no file's requests use up another's rate-limit bucket; a file that
// needs other flags (a rate limit, an empty tree) starts a proxy of its own (inProcessProxy.ts). Each file issues
// keys of its own into the shared keys file and sees only the log lines written after it joined, so that nothing
// one file did shows in another's assertions.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import type { TestTree } from './frozenBundle.ts';
import { eventually } from './http.ts';
import { startInProcess, writeKeys, type RunningProxy } from './inProcessProxy.ts';
import { askingAt, UNLIMITED, type AskedProxy } from './proxy.ts';
import { recordFile } from './record.ts';
import { testDist } from './tree.ts';

interface Shared {
  proxy: RunningProxy;
  keysFile: string;
}

const shared = new Map<TestTree, Promise<Shared>>();
const started: RunningProxy[] = [];

function sharedProxy(tree: TestTree): Promise<Shared> {
  let proxy = shared.get(tree);
  if (proxy === undefined) {
    if (shared.size === 0) flushLogsOnTermination();
    proxy = start(tree);
    shared.set(tree, proxy);
  }
  return proxy;
}

async function start(tree: TestTree): Promise<Shared> {
  // In the run's record directory, which outlives the files of the worker and goes with the run.
  const dir = recordFile(`shared-proxy-${tree}`);
  mkdirSync(dir);
  const keysFile = join(dir, 'keys.json');
  await writeKeys(keysFile, {});
  const proxy = await startInProcess({ keysFile, args: ['--dist', testDist(tree), ...UNLIMITED] });
  started.push(proxy);
  return { proxy, keysFile };
}

/**
 * Vitest ends a worker with SIGTERM, whose default action would drop the log lines still buffered, and the run's
 * last check (test/last/secrets.test.ts) reads them. The signal is raised again once they are written.
 */
function flushLogsOnTermination(): void {
  process.once('SIGTERM', () => {
    for (const proxy of started) proxy.proxy.logs.flush();
    process.kill(process.pid, 'SIGTERM');
  });
}

/**
 * Joins the worker's proxy over `tree` with keys of its own, of the given names and statuses, once the proxy has
 * read them from its keys file. Key names are unique in a keys file: each file names its keys after itself.
 */
export async function joinSharedProxy<N extends string>(tree: TestTree, statuses: Record<N, 'active' | 'blocked'>): Promise<{ proxy: AskedProxy; keys: Record<N, string>; keysFile: string }> {
  const { proxy, keysFile } = await sharedProxy(tree);
  const keys = await writeKeys(keysFile, statuses);
  const active = (Object.keys(statuses) as N[]).find((name) => statuses[name] === 'active');
  if (active === undefined) throw new Error('a file joins the shared proxy with at least one active key');
  // Answered after the key check, which comes before routing: 401 until the proxy has reloaded the keys file,
  // then 404. Its log line, on a path of its own (a key's name is unique in the file), marks where this file's
  // part of the log begins.
  const probe = `/joined/${active}`;
  await eventually('the proxy to accept the new key', async () => (await proxy.get(probe, { 'x-api-key': keys[active] })).status === 404);
  let from = -1;
  await eventually('the log to reach the accepted key', async () => {
    const log = readFileSync(proxy.logFile);
    const at = log.lastIndexOf(`"path":"${probe}"`);
    const end = log.indexOf('\n', at) + 1;
    if (at >= 0 && log.subarray(at, end).includes('"status":404')) from = end;
    return from > 0;
  });
  return { proxy: askingAt(proxy.url, proxy.logFile, from), keys, keysFile };
}

/**
 * For a test file: the worker's proxy over a test tree with one key issued for the file, joined before the file's
 * tests (inProcessProxy.ts's own proxy, without the parse of the tree).
 */
export function sharedProxyForFile(name: string, tree: TestTree = '2025'): { proxy: AskedProxy; key: string; keysFile: string } {
  const context = {} as { proxy: AskedProxy; key: string; keysFile: string };
  beforeAll(async () => {
    const joined = await joinSharedProxy(tree, { [name]: 'active' });
    Object.assign(context, { proxy: joined.proxy, key: joined.keys[name]!, keysFile: joined.keysFile });
  });
  return context;
}
