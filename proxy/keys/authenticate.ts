// Section 5: the key comes in exactly one of X-API-Key or Authorization: Bearer. Nothing here echoes the
// presented value, so no error body or log line can carry a key.
import type { IncomingHttpHeaders } from 'node:http';
import type { KeyRecord } from './keysFile.ts';
import type { KeyStore } from './keyStore.ts';

export type AuthResult =
  | { ok: true; key: KeyRecord }
  /** `code`: the error code of the answer; `key`: the record of a blocked key, for counting its refusals. */
  | { ok: false; status: 400 | 401 | 403; detail: string; code: 'key_missing' | 'key_unknown' | 'key_blocked' | null; key?: KeyRecord };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function authenticate(headers: IncomingHttpHeaders, keys: KeyStore): AuthResult {
  // Node joins repeated fields of unknown names with ", ", which no key contains: one string, never a list.
  const apiKey = headers['x-api-key'] as string | undefined;
  const authorization = headers.authorization;
  if (apiKey !== undefined && authorization !== undefined) {
    return { ok: false, status: 400, detail: 'Den Zugangsschlüssel bitte nur in einem Header angeben: X-API-Key oder Authorization: Bearer.', code: null };
  }
  let presented: string;
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    if (!m) return { ok: false, status: 401, detail: 'Im Header Authorization wird nur das Schema Bearer mit einem Zugangsschlüssel angenommen.', code: 'key_missing' };
    presented = m[1]!;
  } else if (apiKey !== undefined) {
    presented = apiKey.trim();
  } else {
    return { ok: false, status: 401, detail: 'Zugangsschlüssel fehlt: bitte im Header X-API-Key oder Authorization: Bearer angeben.', code: 'key_missing' };
  }
  const key = presented === '' ? undefined : keys.lookup(presented);
  if (key === undefined || key.status === 'revoked') return { ok: false, status: 401, detail: 'Unbekannter Zugangsschlüssel.', code: 'key_unknown' };
  if (key.status === 'blocked') return { ok: false, status: 403, detail: 'Dieser Zugangsschlüssel ist gesperrt.', code: 'key_blocked', key };
  return { ok: true, key };
}
