// What is wrong with a request's head itself, before its path means anything: Node lets these through to the
// handler (the server is told not to refuse a missing Host itself, and hands requests with an unusual `Expect` to
// the handler too, proxy/server.ts), so that they are answered like every other refusal, with JSON, and logged.
import type { IncomingMessage } from 'node:http';
import { ERRORS } from '../../core/errors.ts';

export type HeadProblem = { code: 'bad_request' | 'expectation_failed'; detail: string };

const BAD = ERRORS.bad_request.detail;

export function headProblem(req: IncomingMessage): HeadProblem | null {
  // llhttp takes any one-digit version; HTTP/2 has no request line, so one saying 2.0 is not HTTP/2.
  if (req.httpVersionMajor !== 1) return { code: 'bad_request', detail: BAD.notHttp };
  // RFC 9112 3.2: an HTTP/1.1 request has exactly one Host; Node keeps only the first of several.
  const hosts = hostFields(req.rawHeaders);
  if (hosts > 1 || (hosts === 0 && req.httpVersionMinor === 1)) return { code: 'bad_request', detail: BAD.host };
  const expect = req.headers.expect;
  if (expect !== undefined && expect.toLowerCase() !== '100-continue') {
    return { code: 'expectation_failed', detail: ERRORS.expectation_failed.detail.unknown };
  }
  return null;
}

function hostFields(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The usual spellings first: every request has one, and lower-casing it would make a string each time.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) n++;
  }
  return n;
}
