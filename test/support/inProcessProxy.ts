// The proxy in the test's own worker, for the tests of the request path, where the process is not what is tested:
// `createProxy` (what `finanzamt serve` runs) with the flags `serve` parses from the same arguments, on a free
// loopback port. It saves each file a child process (a Node start, the CLI, a second parse of the tree), and answers
// through the same object as test/support/proxy.ts's processes, so a test moves here without changing a line of its
// assertions. Starting, stopping, reloading, workers and the CLI are tested on real processes (proxy.ts). Most files
// share one such proxy per worker (sharedProxy.ts); a file starts its own for flags of its own.
import { Command } from 'commander';
import type { ServeInput } from '../../core/options.ts';
import { withServeOptions } from '../../proxy/commands/serve.ts';
import { addKey, readKeysFile, setKeyStatus, writeKeysFile } from '../../proxy/keys/keysFile.ts';
import { withKeysFileLocked } from '../../proxy/keys/keysFileLock.ts';
import { createProxy, type Proxy } from '../../proxy/server.ts';
import { eventually } from './http.ts';
import { askingAt, type TestProxy } from './proxy.ts';
import { recordFile, rememberKey, rememberProxyLog } from './record.ts';

export interface RunningProxy extends TestProxy {
  stop(): Promise<void>;
  proxy: Proxy;
}

/** The flags `finanzamt serve` takes from `args`, with its defaults for the rest. */
async function serveFlags(args: string[]): Promise<ServeInput> {
  let flags: ServeInput | undefined;
  const program = new Command().exitOverride();
  withServeOptions(program.command('serve')).action((f: ServeInput) => { flags = f; });
  await program.parseAsync(['serve', ...args], { from: 'user' });
  return flags!;
}

/** `healthy`: wait until /healthz says a version is loaded (default true). */
export async function startInProcess(o: { keysFile: string; args: string[]; healthy?: boolean }): Promise<RunningProxy> {
  // In the run's record, which outlives the test file: the last check of the run reads every log.
  const logFile = recordFile('proxy.log');
  rememberProxyLog(logFile);
  const flags = await serveFlags(['--host', '127.0.0.1', '--port', '0', '--keys-file', o.keysFile, '--log-file', logFile, ...o.args]);
  // As proxy/commands/serveAction.ts hands the flags to one process.
  const proxy = await createProxy(flags);
  const running: RunningProxy = { ...askingAt(proxy.url, logFile), stop: () => proxy.close(), proxy };
  if (o.healthy !== false) await eventually('the proxy to load a version', async () => (await running.get('/healthz')).status === 200, 60_000);
  return running;
}

/**
 * Adds a key of each name and status to a keys file (made if missing), under its lock, as `finanzamt keys` does;
 * returns the keys by name.
 */
export async function writeKeys<N extends string>(keysFile: string, statuses: Record<N, 'active' | 'blocked'>): Promise<Record<N, string>> {
  return withKeysFileLocked(keysFile, async () => {
    let file = await readKeysFile(keysFile);
    const keys = {} as Record<N, string>;
    for (const [name, status] of Object.entries(statuses) as [N, 'active' | 'blocked'][]) {
      const added = addKey(file, name);
      file = status === 'blocked' ? setKeyStatus(added.file, added.record.id, 'blocked').file : added.file;
      keys[name] = added.key;
      rememberKey(added.key);
    }
    await writeKeysFile(keysFile, file);
    return keys;
  });
}
