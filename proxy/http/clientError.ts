// What a client gets when Node cannot hand its request to the handler: a head larger than maxHeaderSize, bytes
// that are not HTTP/1.1, or a request that did not arrive within the timeouts. Node's own refusals are bare
// status lines; these carry the JSON `detail` every error of this API has, with the status of section 7 where
// one fits (an unusable head is 400) and 408 for a client too slow to finish its request.
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { ERRORS, type ErrorCode } from '../../core/errors.ts';
import { CACHE_ERROR, JSON_TYPE } from '../../core/headers.ts';

export interface Refusal {
  status: number;
  bytes: Buffer;
}

/**
 * A whole response that closes its connection, for a socket no handler answers. No version is looked at before
 * the handler, so these bodies carry no `stand`. `extra`: further header lines, each ending in CRLF.
 */
export function refusal(code: ErrorCode, reason: string, detail: string, extra = ''): Refusal {
  const { status } = ERRORS[code];
  const body = JSON.stringify({ detail, code });
  const head = `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`
    + `cache-control: ${CACHE_ERROR}\r\naccess-control-allow-origin: *\r\nconnection: close\r\n${extra}\r\n`;
  return { status, bytes: Buffer.from(head + body) };
}

/** The socket of a connection, with Node's link to the answer it is writing (if any). */
type ClientSocket = Duplex & { _httpMessage?: { headersSent: boolean; writableEnded: boolean } | null };

/** How long a refused client has to take its answer before the connection is cut. */
export const LINGER_MS = 2_000;

/** A `clientError` listener for the server: answers as above, then closes the connection. */
export function answerClientError(maxHeaderBytes: number, log: Logger) {
  const tooLarge = refusal('bad_request', 'Bad Request', ERRORS.bad_request.detail.headTooLarge(maxHeaderBytes));
  const timeout = refusal('request_timeout', 'Request Timeout', ERRORS.request_timeout.detail.late);
  const malformed = refusal('bad_request', 'Bad Request', ERRORS.bad_request.detail.notHttp);
  return (err: Error & { code?: string }, socket: ClientSocket): void => {
    // Answers to the requests before the bad one are ended at the end of this turn (finishTogether.ts): they
    // go out first, and the refusal after them.
    setImmediate(() => {
      const inFlight = socket._httpMessage;
      // As Node does it: never write into an answer that has begun and not ended.
      if (err.code === 'ECONNRESET' || !socket.writable || (inFlight?.headersSent && !inFlight.writableEnded)) {
        socket.destroy();
        return;
      }
      const answer = err.code === 'HPE_HEADER_OVERFLOW' ? tooLarge : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? timeout : malformed;
      socket.end(answer.bytes);
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
      log.info({ reason: err.code ?? err.message, status: answer.status }, 'request refused before the handler');
    });
  };
}
