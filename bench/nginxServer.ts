// nginx serving a version's stored files, as the static baseline for the proxy: the body of a request by its
// object path (`/objects/ab/<sha>.json`), sent from the `.br` or `.gz` file beside it by brotli_static (the
// Debian module) and gzip_static, with the proxy's Content-Type and representation headers (Vary, caching,
// CORS; nginx makes its own ETag). The answers that are tables (a lookup, a district) it finds below `/tables/`, the
// same files, sent with the proxy's `Vary: Accept, Accept-Encoding`. Configured as one would for production (sendfile, open_file_cache, a
// buffered access log), run as the current user with its files in a throwaway directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { CACHE_OK, EXPOSE } from '../core/headers.ts';
import { answering, spawnServer, type Served } from './spawnServer.ts';
import { SERVE_DEFAULTS } from '../core/options.ts';

const BROTLI_STATIC = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
/** Where nginx finds the stored files of answers that are tables, and the `Vary` it sends them with. */
export const TABLES = '/tables';
export const TABLE_VARY = 'Accept, Accept-Encoding';

/**
 * What nginx does besides sending files when it does the proxy's job (the peers benchmark): the key checked on
 * every request against a `map` of the keys (401 / 403 with a JSON `detail`), and `limit_req` per client
 * address (X-Forwarded-For believed from 127.0.0.1 through the realip module) at the proxy's default rate and
 * burst (core/options.ts), 429 with a JSON `detail`. The key check runs in nginx's rewrite phase, before limit_req.
 */
export interface SameJob {
  keys: string[];
  blockedKeys: string[];
  errors: Record<'missing' | 'unknown' | 'blocked' | 'limited', { status: number; body: object }>;
}

/**
 * Starts nginx with `workers` worker processes over `versionDir`, sending the files (and with `job`, doing the
 * proxy's job too); ready once `probePath` answers.
 */
export async function serveNginx(scratch: string, versionDir: string, workers: number, probePath: string, job?: SameJob): Promise<Served> {
  const prefix = join(scratch, `nginx-${workers}${job ? '-job' : ''}`);
  mkdirSync(prefix, { recursive: true });
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxConf(prefix, versionDir, port, workers, job));
  const url = `http://127.0.0.1:${port}`;
  return spawnServer('nginx', ['-p', prefix, '-c', conf, '-e', 'stderr', '-g', `daemon off; pid ${join(prefix, 'nginx.pid')};`], () => answering(url, probePath));
}

function nginxConf(prefix: string, versionDir: string, port: number, workers: number, job?: SameJob): string {
  const json = (e: { status: number; body: object }) => `return ${e.status} '${JSON.stringify(e.body)}';`;
  return `
load_module ${BROTLI_STATIC};
# As root, nginx would hand its workers to "nobody"; the current user is who owns the scratch directory.
${process.getuid?.() === 0 ? `user ${userInfo().username};` : ''}
worker_processes ${workers};
events { worker_connections 1024; }
http {
  # Like the proxy's, one line per request to a file, written in batches.
  access_log ${join(prefix, 'access.log')} combined buffer=64k flush=1s;
  sendfile on;
  tcp_nopush on;
  open_file_cache max=10000 inactive=60s;
  # wrk keeps its connections for the whole round, as it does with the Node servers (which set no limit).
  keepalive_requests 1000000;
  types { application/json json; }
  default_type application/octet-stream;
  charset utf-8;
  charset_types application/json;
${job ? `
  set_real_ip_from 127.0.0.1;
  real_ip_header X-Forwarded-For;
  limit_req_zone $binary_remote_addr zone=per_address:16m rate=${SERVE_DEFAULTS.rate}r/s;
  limit_req_status 429;
  # A refusal is the expected answer under this load, not an error worth a line on stderr.
  limit_req_log_level info;
  map $http_x_api_key $key_state {
    default unknown;
    "" missing;
${job.keys.map((k) => `    "${k}" ok;`).join('\n')}
${job.blockedKeys.map((k) => `    "${k}" blocked;`).join('\n')}
  }` : ''}
  server {
    listen 127.0.0.1:${port};
    root ${versionDir};
${job ? `
    error_page 429 = @limited;
    location @limited {
      default_type application/json;
      add_header Access-Control-Allow-Origin "*" always;
      ${json(job.errors.limited)}
    }` : ''}
${[['/objects/', null], [`${TABLES}/objects/`, TABLE_VARY]].map(([location, vary]) => `    location ${location} {
${vary === null ? '' : `      alias ${join(versionDir, 'objects')}/;\n`}${job ? `
      default_type application/json;
      if ($key_state = missing) { ${json(job.errors.missing)} }
      if ($key_state = unknown) { ${json(job.errors.unknown)} }
      if ($key_state = blocked) { ${json(job.errors.blocked)} }
      limit_req zone=per_address burst=${SERVE_DEFAULTS.burst} nodelay;` : ''}
      brotli_static on;
      gzip_static on;
${vary === null ? '      gzip_vary on;' : `      add_header Vary "${vary}";`}
      add_header Cache-Control "${CACHE_OK}";
      add_header Access-Control-Allow-Origin "*";
      add_header Access-Control-Expose-Headers "${EXPOSE}";
    }`).join('\n')}
  }
}
`;
}

/** A port free right now, for a server that cannot be asked to pick one and say which (nginx, node's inspector). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
