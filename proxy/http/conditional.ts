// If-None-Match against the ETag of the representation about to be sent (weak comparison, lists and `*`,
// as `fresh` implements them).
import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

export function notModified(headers: IncomingHttpHeaders, etag: string): boolean {
  const ifNoneMatch = headers['if-none-match'];
  // Only If-None-Match is handed on: `fresh` also reads a request's `Cache-Control: no-cache` as "send the
  // body", but RFC 9110 (13.1.2) has a server evaluate If-None-Match regardless, and Node's fetch adds that
  // header to every conditional request.
  return ifNoneMatch !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag });
}
