// A proxy as callers meet it, with a valid and a blocked key, every response it gives to `get` checked against its
// own OpenAPI description: the worker's shared proxy over a test tree (sharedProxy.ts), or one started in process
// (inProcessProxy.ts) with flags of its own or on another directory (an empty one leaves it without a version).
import { join } from 'node:path';
import { withContract, type Contract } from './contract.ts';
import type { TestTree } from './frozenBundle.ts';
import { startInProcess, writeKeys } from './inProcessProxy.ts';
import { scratchDir, UNLIMITED, type AskedProxy } from './proxy.ts';
import { joinSharedProxy } from './sharedProxy.ts';
import { testDist } from './tree.ts';

export interface CallerProxy {
  proxy: AskedProxy & { contract: Contract };
  key: string;
  blockedKey: string;
  /** Sends the valid key in X-API-Key. */
  get(path: string, headers?: Record<string, string>, method?: string): ReturnType<AskedProxy['get']>;
  /** POSTs JSON with the valid key. */
  post(path: string, body: string | Buffer, headers?: Record<string, string>): ReturnType<AskedProxy['post']>;
}

/** A caller of a proxy of its own, which the test file stops. */
export interface OwnCallerProxy extends CallerProxy {
  stop(): Promise<void>;
}

function callerOf(proxy: CallerProxy['proxy'], key: string, blockedKey: string): CallerProxy {
  return {
    proxy, key, blockedKey,
    get: (path, headers = {}, method) => proxy.get(path, { 'x-api-key': key, ...headers }, method),
    post: (path, body, headers = {}) => proxy.post(path, body, { 'x-api-key': key, ...headers }),
  };
}

export interface SharedCallerOptions {
  /** The test tree, November 2025 unless named. */
  tree?: TestTree;
  /** Check every response against this description instead of fetching the proxy's own. */
  contract?: Contract;
}

/** A caller of the worker's shared proxy, with keys named after `name` (unique in the worker: the test file's name). */
export async function callerOfSharedProxy(name: string, o: SharedCallerOptions = {}): Promise<CallerProxy> {
  const blocked = `${name}-blocked`;
  const { proxy, keys } = await joinSharedProxy(o.tree ?? '2025', { [name]: 'active', [blocked]: 'blocked' });
  return callerOf(await withContract(proxy, o.contract), keys[name]!, keys[blocked]!);
}

export interface CallerProxyOptions {
  /** Further `serve` flags, e.g. `--rate 1 --burst 1`. */
  args?: string[];
  /** Serve this directory instead of the test tree; an empty one leaves the proxy without a version. */
  dist?: string;
  /** Check every response against this description instead of fetching the proxy's own. */
  contract?: Contract;
}

/** A proxy of the caller's own, for flags the shared one must not have or a directory other than a test tree. */
export async function startCallerProxy(o: CallerProxyOptions = {}): Promise<OwnCallerProxy> {
  const keysFile = join(scratchDir(), 'keys.json');
  const { caller: key, blocked: blockedKey } = await writeKeys(keysFile, { caller: 'active', blocked: 'blocked' });
  const started = await startInProcess({ keysFile, args: ['--dist', o.dist ?? testDist(), ...(o.args ?? UNLIMITED)], healthy: o.dist === undefined });
  return { ...callerOf(await withContract(started, o.contract), key, blockedKey), stop: () => started.stop() };
}
