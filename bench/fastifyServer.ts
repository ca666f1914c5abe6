// What a Node team would pick for the proxy's job, as a peer in the benchmark: fastify with
// @fastify/rate-limit (per client address, X-Forwarded-For believed from 127.0.0.1) and a key check in an
// onRequest hook (401 / 403 with a JSON `detail`), answering the benchmark's API URLs with the same stored
// brotli bytes from memory and the same representation headers, and one log line per answer to a file
// through pino, written asynchronously, as the proxy's access log is. The rate limit is fixed-window (all the
// plugin offers): as many requests per window as the proxy's burst, in the time its rate earns them back (100 per
// 5 s per address for 20/s with a burst of 100).
// Its own process (`node --import tsx bench/fastifyServer.ts CONFIG_FILE`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { pino } from 'pino';
import { ERRORS, type ErrorCode } from '../core/errors.ts';
import { objectPath } from '../core/manifest.ts';
import { CACHE_OK, EXPOSE, JSON_TYPE } from '../core/headers.ts';
import type { MixRequest } from './requestMix.ts';
import { announcedUrl, spawnServer, type Served } from './spawnServer.ts';
import { SERVE_DEFAULTS } from '../core/options.ts';

export interface PeerConfig {
  versionDir: string;
  mixFile: string;
  keys: string[];
  blockedKeys: string[];
  logFile: string;
}

export function serveFastify(config: PeerConfig, configFile: string): Promise<Served> {
  return spawnServer(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), configFile], announcedUrl);
}

/**
 * The errors both peers send, as the proxy words them (`detail` and `code`); the peers cannot say when a refused
 * caller may try again, so theirs says a second, what the proxy says at the default rate.
 */
export const PEER_ERRORS = {
  missing: peerError('key_missing', ERRORS.key_missing.detail.none),
  unknown: peerError('key_unknown', ERRORS.key_unknown.detail.unknown),
  blocked: peerError('key_blocked', ERRORS.key_blocked.detail.blocked),
  limited: peerError('rate_limited', ERRORS.rate_limited.detail.tooMany(SERVE_DEFAULTS.rate, SERVE_DEFAULTS.burst, 1)),
  notFound: peerError('not_found', ERRORS.not_found.detail.path),
};

function peerError(code: ErrorCode, detail: string): { status: number; body: { detail: string; code: ErrorCode } } {
  return { status: ERRORS[code].status, body: { detail, code } };
}

async function main(configFile: string): Promise<void> {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as PeerConfig;
  const mix = JSON.parse(readFileSync(config.mixFile, 'utf8')) as MixRequest[];
  const answers = new Map(mix.map((r) => [r.path, { etag: r.etag, vary: r.vary, body: readFileSync(join(config.versionDir, objectPath(r.object, 'br'))) }]));
  const keys = new Set(config.keys);
  const blocked = new Set(config.blockedKeys);
  const app = Fastify({
    trustProxy: '127.0.0.1',
    loggerInstance: pino(pino.destination({ dest: config.logFile, sync: false })),
    disableRequestLogging: true,
  });
  const refuse = (reply: { code(n: number): { type(t: string): { send(b: string): unknown } } }, e: { status: number; body: object }) => reply.code(e.status).type(JSON_TYPE).send(JSON.stringify(e.body));
  app.addHook('onRequest', async (request, reply) => {
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || key === '') return refuse(reply, PEER_ERRORS.missing);
    if (blocked.has(key)) return refuse(reply, PEER_ERRORS.blocked);
    if (!keys.has(key)) return refuse(reply, PEER_ERRORS.unknown);
  });
  await app.register(rateLimit, {
    max: SERVE_DEFAULTS.burst, timeWindow: (SERVE_DEFAULTS.burst / SERVE_DEFAULTS.rate) * 1000, cache: 100_000,
    errorResponseBuilder: () => ({ statusCode: 429, ...PEER_ERRORS.limited.body }),
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ip: request.ip, ms: reply.elapsedTime });
  });
  app.get('/*', async (request, reply) => {
    const answer = answers.get(request.url);
    if (answer === undefined) return refuse(reply, PEER_ERRORS.notFound);
    reply.headers({
      etag: answer.etag, vary: answer.vary, 'cache-control': CACHE_OK, 'content-type': JSON_TYPE, 'content-encoding': 'br',
      'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE,
    });
    return reply.send(answer.body);
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`listening on ${url}`);
  process.once('SIGTERM', () => { void app.close().then(() => process.exit(0)); });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv[2]!);
