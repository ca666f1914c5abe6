// `finanzamt serve` as its own process for the load benchmarks: on loopback, believing X-Forwarded-For from
// 127.0.0.1 (so a load generator can stand for many clients), with the access log to a file as in production.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addKey, writeKeysFile } from '../proxy/keys/keysFile.ts';
import { buildVersion } from '../build/buildVersion.ts';
import { unitEnvironment } from '../test/support/unitEnvironment.ts';
import { announcedUrl, spawnServer, type Served } from './spawnServer.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The benchmarks measure the proxy as it is deployed; the unit's PORT does not matter, they pass --port. */
const UNIT_ENVIRONMENT = unitEnvironment();

/**
 * What the proxy serves in a benchmark: FINANZAMT_BENCH_DIST (a dist directory with `current`), else the
 * shipped bundle built into `scratch`; and a keys file in `scratch` holding one key.
 */
export async function proxyFixture(scratch: string): Promise<{ dist: string; keysFile: string; key: string }> {
  const dist = process.env.FINANZAMT_BENCH_DIST ?? join(scratch, 'dist');
  if (!process.env.FINANZAMT_BENCH_DIST) await buildVersion({ source: join(ROOT, 'data'), out: dist, keep: 0 });
  const keysFile = join(scratch, 'keys.json');
  const { file, key } = addKey({ format: 1, keys: [] }, 'bench');
  await writeKeysFile(keysFile, file);
  return { dist, keysFile, key };
}

/**
 * Starts the proxy in the unit's environment (with `flags` besides the usual ones, and `nodeFlags` for node itself
 * besides the unit's) and waits until every one of its processes has loaded the version. `checkout`: the
 * repository whose proxy runs, this one unless another is compared with it.
 */
export async function serveProxy(scratch: string, dist: string, keysFile: string, workers: number, flags: string[] = [], nodeFlags: string[] = [], checkout = ROOT): Promise<Served> {
  const logFile = join(scratch, `proxy-${workers}${flags.join('').replace(/\W/g, '')}${checkout === ROOT ? '' : '-other'}.log`);
  const proxy = await spawnServer(process.execPath, [...nodeFlags, join(checkout, 'bin/finanzamt.mjs'), 'serve', '--host', '127.0.0.1', '--port', '0', '--dist', dist,
    '--keys-file', keysFile, '--trust-proxy', '127.0.0.1', '--log-file', logFile, '--workers', String(workers), ...flags], announcedUrl, UNIT_ENVIRONMENT);
  const loaded = () => readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes('"msg":"version loaded"')).length;
  for (let waited = 0; loaded() < workers; waited += 100) {
    if (waited > 120_000) {
      await proxy.stop();
      throw new Error('the proxy did not load its version within two minutes');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return proxy;
}
