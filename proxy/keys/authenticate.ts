// Section 5: the key comes in exactly one of X-API-Key or Authorization: Bearer. Nothing here echoes the
// presented value, so no error body or log line can carry a key.
import type { IncomingHttpHeaders } from 'node:http';
import { ERRORS, type ErrorCode } from '../../core/errors.ts';
import type { KeyRecord } from './keysFile.ts';
import type { KeyStore } from './keyStore.ts';

export type AuthResult =
  | { ok: true; key: KeyRecord }
  /** `key`: the record of a blocked key, so that its refusals count for its name. */
  | { ok: false; code: Extract<ErrorCode, `key_${string}`>; detail: string; key?: KeyRecord };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function authenticate(headers: IncomingHttpHeaders, keys: Pick<KeyStore, 'lookup'>): AuthResult {
  // Node joins repeated fields of unknown names with ", ", which no key contains: one string, never a list.
  const apiKey = headers['x-api-key'] as string | undefined;
  const authorization = headers.authorization;
  if (apiKey !== undefined && authorization !== undefined) {
    return { ok: false, code: 'key_in_both_headers', detail: ERRORS.key_in_both_headers.detail.both };
  }
  let presented: string | undefined;
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    if (!m) return { ok: false, code: 'key_missing', detail: ERRORS.key_missing.detail.notBearer };
    presented = m[1]!;
  } else {
    presented = apiKey?.trim();
  }
  if (presented === undefined || presented === '') {
    // An empty X-API-Key is no key, as a missing one is: nothing was presented that could be unknown.
    return { ok: false, code: 'key_missing', detail: ERRORS.key_missing.detail.none };
  }
  const key = keys.lookup(presented);
  if (key === undefined || key.status === 'revoked') return { ok: false, code: 'key_unknown', detail: ERRORS.key_unknown.detail.unknown };
  if (key.status === 'blocked') return { ok: false, code: 'key_blocked', detail: ERRORS.key_blocked.detail.blocked, key };
  return { ok: true, key };
}
