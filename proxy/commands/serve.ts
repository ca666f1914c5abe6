// `finanzamt serve`: the proxy in front of a built tree (or an origin holding one). Its options are shared
// with `finanzamt start`, which serves the same way after preparing a first tree and key. Only the options and
// help are here, with the defaults of core/options.ts; what serves is in serveAction.ts, loaded only when it runs.
import type { Command } from 'commander';
import { parseCount, parseList, parsePort, parsePositive, parseRedisUrl } from '../../core/commandLine.ts';
import { PORT_DEFAULT, SERVE_DEFAULTS as D, type ServeInput } from '../../core/options.ts';

export function registerServeCommand(program: Command): void {
  withServeOptions(program.command('serve'))
    .description('Serve the built tree: key check, rate limit, stored and rendered answers.')
    .action(async (flags: ServeInput) => {
      await (await import('./serveAction.ts')).serve(flags);
    });
}

export function withServeOptions(command: Command): Command {
  return command
    .option('--port <n>', `port to listen on; 0 picks a free one (default: $PORT, else ${PORT_DEFAULT})`, parsePort)
    .option('--host <address>', 'address to listen on; the default serves every interface, as a public endpoint does', D.host)
    .option('--dist <dir>', 'tree written by finanzamt build; <dir>/current is served', D.dist)
    .option('--origin <url>', 'serve the tree held at this URL (<url>/current names the version) instead of --dist')
    .option('--keys-file <file>', 'keys file, as written by finanzamt keys', D.keysFile)
    .option('--trust-proxy <list>', 'comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed', parseList, D.trustProxy)
    .option('--rate <n>', 'requests per second per client address', parsePositive, D.rate)
    .option('--burst <n>', 'requests a client may make at once before --rate applies (a batch of n lookups counts n; none larger than this is taken)', parsePositive, D.burst)
    .option('--ipv6-prefix <bits>', 'bits of an IPv6 address that name one client, for the rate limit and the connection cap', parsePositive, D.ipv6Prefix)
    .option('--max-connections <n>', 'connections held at most; one more is answered 503 and closed', parsePositive, D.maxConnections)
    .option('--max-connections-per-address <n>', 'connections held at most from one client address (--ipv6-prefix); one more is answered 429 and closed; --trust-proxy peers are exempt', parsePositive, D.maxConnectionsPerAddress)
    .option('--rate-clients <n>', 'client addresses whose rate state is kept at most', parsePositive, D.rateClients)
    .option('--cache-bytes <n>', 'memory for stored bodies', parsePositive, D.cacheBytes)
    .option('--warm <n>', 'before a version answers, read the bodies of its n most-asked answers (ranked by the build) into memory', parseCount, D.warm)
    .option('--dynamic-cache-bytes <n>', 'memory for rendered answers (place names, other limits and filters)', parsePositive, D.dynamicCacheBytes)
    .option('--read-timeout <ms>', 'longest wait for one body from disk or origin before answering 503', parsePositive, D.readTimeout)
    .option('--headers-timeout <ms>', 'longest wait for a request\'s line and headers before answering 408 and closing; the whole request gets 5 s more', parsePositive, D.headersTimeout)
    .option('--keep-alive-timeout <ms>', 'how long an idle kept-alive connection stays open; behind a load balancer, longer than its idle timeout', parsePositive, D.keepAliveTimeout)
    .option('--log-file <file>', 'write the logs here instead of to stdout')
    .option('--workers <n>', 'processes serving on this machine (node:cluster), sharing the port and the rate limit', parsePositive, D.workers)
    .option('--redis <url>', 'share the rate limit and the keys with every proxy using this Redis (redis://host:port)', parseRedisUrl)
    .option('--redis-timeout <ms>', 'longest wait for Redis on a request before this machine\'s own limit decides it', parsePositive, D.redisTimeout)
    .option('--metrics-port <n>', 'answer Prometheus scrapes at /metrics on this port (0 picks a free one); off when not given', parsePort)
    .option('--metrics-host <address>', 'address the metrics port listens on; keep it private', D.metricsHost)
    .option('--max-data-age-days <n>', 'age of the data in days above which the log warns (at start and once a day)', parsePositive, D.maxDataAgeDays);
}
