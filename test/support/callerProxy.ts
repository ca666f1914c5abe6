// A proxy as callers meet it: started in process (inProcessProxy.ts) on the test tree (or on an empty one) with a
// valid and a blocked key, every response it gives to `get` checked against its own OpenAPI description.
import { join } from 'node:path';
import { withContract, type Contract } from './contract.ts';
import { startInProcess, writeKeys, type RunningProxy } from './inProcessProxy.ts';
import { scratchDir } from './proxy.ts';
import { testDist } from './tree.ts';

export interface CallerProxy {
  proxy: RunningProxy & { contract: Contract };
  key: string;
  blockedKey: string;
  /** Sends the valid key in X-API-Key. */
  get(path: string, headers?: Record<string, string>, method?: string): ReturnType<RunningProxy['get']>;
  /** POSTs JSON with the valid key. */
  post(path: string, body: string | Buffer, headers?: Record<string, string>): ReturnType<RunningProxy['post']>;
}

export interface CallerProxyOptions {
  /** Further `serve` flags, e.g. `--rate 1 --burst 1`. */
  args?: string[];
  /** Serve this directory instead of the test tree; an empty one leaves the proxy without a version. */
  dist?: string;
  /** Check every response against this description instead of fetching the proxy's own. */
  contract?: Contract;
}

export async function startCallerProxy(o: CallerProxyOptions = {}): Promise<CallerProxy> {
  const keysFile = join(scratchDir(), 'keys.json');
  const { caller: key, blocked: blockedKey } = await writeKeys(keysFile, { caller: 'active', blocked: 'blocked' });
  const started = await startInProcess({ keysFile, args: ['--dist', o.dist ?? testDist(), ...(o.args ?? ['--rate', '100000', '--burst', '100000'])], healthy: o.dist === undefined });
  const proxy = await withContract(started, o.contract);
  return {
    proxy, key, blockedKey,
    get: (path, headers = {}, method) => proxy.get(path, { 'x-api-key': key, ...headers }, method),
    post: (path, body, headers = {}) => proxy.post(path, body, { 'x-api-key': key, ...headers }),
  };
}
