// The preconditions of a GET or HEAD against the ETag of the representation about to be sent: If-Match first,
// then If-None-Match (weak comparison, lists and `*`, as `fresh` implements them), in RFC 9110's order (13.2.2).
import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

/**
 * Whether an If-Match fails. It compares strongly (RFC 9110 13.1.1) and every ETag here is weak, so only `*`
 * (any current representation) can pass, as pillarjs/send answers it.
 */
export function preconditionFailed(headers: IncomingHttpHeaders): boolean {
  const ifMatch = headers['if-match'];
  return ifMatch !== undefined && ifMatch.trim() !== '*';
}

export function notModified(headers: IncomingHttpHeaders, etag: string): boolean {
  const ifNoneMatch = headers['if-none-match'];
  // Only If-None-Match is handed on: `fresh` also reads a request's `Cache-Control: no-cache` as "send the
  // body", but RFC 9110 (13.1.2) has a server evaluate If-None-Match regardless, and Node's fetch adds that
  // header to every conditional request.
  return ifNoneMatch !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag });
}
