// The generators of the fuzz test (fuzz.test.ts), shared with the soak run of the benchmark
// (bench/soakBench.ts), which throws many more of the same requests at the proxy.
import fc from 'fast-check';

/**
 * Section 7's statuses, plus 204 (preflight), 304 (conditional), 405, 406 and 412 (method, Accept-Encoding, If-Match),
 * 413 and 415 (the body of a batch, POST /finanzamt).
 */
export const HANDLER_STATUSES = [200, 204, 304, 400, 401, 403, 404, 405, 406, 412, 413, 415, 417, 429, 503];
/**
 * What a request Node cannot hand to the handler gets (proxy/http/clientError.ts): 400 for a head too large or
 * not HTTP/1.1, 408 for one that did not arrive in time.
 */
export const REFUSED_STATUSES = [400, 408];

export function head(method: string, target: string, headers: [string, string][]): string {
  return `${method} ${target} HTTP/1.1\r\nHost: fuzz\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`;
}

// Pieces a request target is built from: the real routes and parameters, traversal and encoding tricks.
const PATH_PARTS = [
  '/finanzamt', '/finanzaemter', '/finanzamt/2115', '/bezirk', '/healthz', '/docs', '/openapi.json', '/', '//',
  '..', '/..', '.', '%2e', '%2E%2E', '%2f', '%5c', '\\', '%252e%252e%252f', '%00', '%FF', '%C0%AF', '%E0%80%AF',
  '%c0%ae', '%u002e', '%', '%zz', 'etc/passwd', 'manifest.json', 'objects', ';', '%3B', '~', '*', 'ä', '%C3%A4',
  '1234', '0000', '99999', 'fa_', '%20', '+',
];
const QUERY_NAMES = ['ags', 'plz', 'ort', 'stadtteil', 'limit', 'gemeinden', 'bundesland', 'typ', 'q', 'AGS', 'ags[]', '', '%00', 'key', 'Api_Key', '%FF'];
const QUERY_VALUES = [
  '', '0', '1', '-1', '20', '200', '201', '600', '1e3', '0x10', '09', '10115', '1011', '11000000', '123456789', 'Berlin', 'Ber',
  'M%C3%BCnchen', 'M%FCnchen', '%00', '%FF%FE', '%C0%AF', '%25', '%2525', '..%2f..%2fetc%2fpasswd', 'NaN', 'Infinity',
  'Bayern', 'bay', '05315000', 'S%C3%BClz', 'Rath%2FHeumar', '%E2%80%AE', '%F0%9F%92%A9', '+', '%2B', 'a'.repeat(300), '9'.repeat(2000),
];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND'];
const header = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['Accept-Encoding', 'br'], ['Accept-Encoding', 'gzip;q=0, identity;q=0, br;q=0'], ['Accept-Encoding', '*;q=0'],
    ['Accept-Encoding', 'gzip;q=abc'], ['If-None-Match', '*'], ['If-None-Match', 'W/"x", "'], ['If-Modified-Since', 'yesterday'],
    ['X-Forwarded-For', '1.2.3.4, nonsense, ::1'], ['X-Forwarded-For', ''], ['Authorization', 'Basic Zm9vOmJhcg=='],
    ['Authorization', 'Bearer'], ['Authorization', 'Bearer a b'], ['X-API-Key', ''], ['X-API-Key', 'fa_nope'],
    ['Range', 'bytes=0-10'], ['Transfer-Encoding', 'chunked'], ['Expect', '100-continue'], ['Content-Length', '0'],
    ['Accept', 'text/html'], ['Origin', 'https://evil.example'],
  ),
  fc.tuple(fc.constantFrom('X-Fuzz', 'Accept-Encoding', 'If-None-Match', 'X-Forwarded-For', 'Accept-Language'),
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 })),
);

const target = fc.record({
  path: fc.array(fc.constantFrom(...PATH_PARTS), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
  query: fc.option(fc.tuple(fc.array(
    fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.option(fc.constantFrom(...QUERY_VALUES), { nil: undefined })),
    { maxLength: 5 },
  ), fc.constantFrom('&', ';', '&&')).map(([pairs, sep]) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join(sep)), { nil: undefined }),
}).map(({ path, query }) => (path.startsWith('/') ? path : `/${path}`) + (query === undefined ? '' : `?${query}`));

/**
 * A whole request head (ending in `Connection: close`) built from the pieces above, with `stored` questions
 * among the targets so that answering is fuzzed too, and a valid key (`key`), an unknown one or none.
 */
export function fuzzedRequest(stored: string[], key: string): fc.Arbitrary<{ method: string; head: string }> {
  const url = fc.oneof({ arbitrary: target, weight: 3 }, { arbitrary: fc.constantFrom(...stored), weight: 1 });
  return fc.tuple(fc.constantFrom(...METHODS), url, fc.array(header, { maxLength: 4 }), fc.constantFrom('valid', 'none', 'unknown'))
    .map(([method, url, headers, keyKind]) => {
      const auth: [string, string][] = keyKind === 'valid' ? [['X-API-Key', key]] : keyKind === 'unknown' ? [['X-API-Key', `fa_${'A'.repeat(43)}`]] : [];
      return { method, head: head(method, url, [...auth, ...headers]) };
    });
}
