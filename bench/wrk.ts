// The benchmarks' load from loopback with wrk (the Debian package, which the benchmarks need installed; the tests
// use autocannon from npm): a fixed mix of stored answers, each request from another client address
// (X-Forwarded-For, believed from 127.0.0.1), so the rate limit is consulted on every request but no address
// comes near it. The Lua script prints one JSON line with what the benchmark reports.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { z } from 'zod';

const execFileAsync = promisify(execFile);

export const REQUEST_MIX = ['/finanzamt/2115', '/finanzamt?ags=01001000', '/finanzamt?plz=10115', '/finanzamt/2115/bezirk', '/finanzaemter?bundesland=Berlin'];

const WrkResult = z.object({
  requests: z.number(),
  duration_us: z.number(),
  p50_us: z.number(),
  p99_us: z.number(),
  /** Answers other than 2xx and 3xx: a 429 here would mean the rate limit, not the proxy, set the pace. */
  non_2xx: z.number(),
  socket_errors: z.number(),
});
export type WrkResult = z.infer<typeof WrkResult> & { rps: number };

/**
 * Writes the Lua script that sends `key` with every request, cycling through `mix` in its order; the file is
 * the caller's to delete.
 */
export async function writeWrkScript(path: string, key: string, mix: string[] = REQUEST_MIX): Promise<void> {
  const paths = mix.map((p) => JSON.stringify(p)).join(', ');
  await writeFile(path, `
local paths = { ${paths} }
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
local n = 0
function request()
  n = n + 1
  -- 65536 addresses per thread: each is seen once every 65536 requests, far below 20 per second.
  local a = n % 65536
  return wrk.format("GET", paths[n % #paths + 1], {
    ["X-API-Key"] = ${JSON.stringify(key)},
    ["X-Forwarded-For"] = "10." .. id .. "." .. math.floor(a / 256) .. "." .. (a % 256),
    ["Accept-Encoding"] = "br, gzip",
  })
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non_2xx":%d,"socket_errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
`, { mode: 0o600 });
}

/** Runs wrk with a script from writeWrkScript, whose `done` prints one JSON line last. */
export async function runWrk(url: string, script: string, o: WrkOptions): Promise<WrkResult> {
  const args = ['-t', String(o.threads), '-c', String(o.connections), '-d', `${o.seconds}s`, '-s', script, url];
  const { stdout } = await execFileAsync('wrk', args, { encoding: 'utf8' });
  const result = WrkResult.parse(JSON.parse(stdout.trim().split('\n').at(-1)!));
  return { ...result, rps: result.requests / (result.duration_us / 1e6) };
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  threads: number;
}
