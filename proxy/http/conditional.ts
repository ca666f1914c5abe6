// If-None-Match against the ETag of the representation about to be sent (weak comparison, lists and `*`,
// as `fresh` implements them).
import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

export function notModified(headers: IncomingHttpHeaders, etag: string): boolean {
  return headers['if-none-match'] !== undefined && fresh(headers, { etag });
}
