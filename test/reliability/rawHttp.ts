// Requests as bytes on a socket, for what an HTTP client library will not send: request lines with
// traversal sequences or absolute URLs, invalid bytes, oversized heads, a head sent one byte at a time.
import { connect } from 'node:net';

export interface RawAnswer {
  /** Null when the server closed the connection without a (complete) status line. */
  status: number | null;
  headers: Record<string, string>;
  body: Buffer;
  /** How long until the server closed the connection. */
  ms: number;
  /** Everything the server sent, for a test that sent several requests. */
  raw: Buffer;
}

/**
 * Sends `head` (and `Connection: close` is up to the caller) and collects everything until the server closes.
 * Rejects when nothing closes the connection within `timeoutMs`: a hang is the failure this exists to catch.
 */
export function rawRequest(url: string, head: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    // write, not end: Node drops the answer to a request whose client half-closed before it was ready.
    const socket = connect(Number(port), hostname, () => socket.write(head));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A reset after the answer (Node closing a connection it refused) still leaves the answer to check.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      resolve({ ...parse(raw), ms: performance.now() - started, raw });
    });
  });
}

/** Every response in `data`, one after the other, as far as each says its Content-Length. */
export function parseResponses(data: Buffer): Omit<RawAnswer, 'ms' | 'raw'>[] {
  const answers: Omit<RawAnswer, 'ms' | 'raw'>[] = [];
  while (data.length > 0) {
    const answer = parse(data);
    answers.push(answer);
    const length = answer.headers['content-length'];
    if (answer.status === null || length === undefined) break;
    data = data.subarray(data.indexOf('\r\n\r\n') + 4 + Number(length));
  }
  return answers;
}

/** Opens a connection and sends `head` one byte every `intervalMs`; resolves when the server closes it. */
export function dripRequest(url: string, head: string, intervalMs: number, timeoutMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let sent = 0;
    const socket = connect(Number(port), hostname);
    const drip = setInterval(() => {
      if (sent < head.length && socket.writable) socket.write(head[sent++]!);
    }, intervalMs);
    const timer = setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`slow connection still open after ${timeoutMs} ms (${sent} bytes sent)`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      resolve({ ...parse(raw), ms: performance.now() - started, raw });
    });
  });
}

/** The first response in `data`; a body is what Content-Length says, or everything up to the close. */
function parse(data: Buffer): Omit<RawAnswer, 'ms' | 'raw'> {
  // Skip interim answers (100 Continue to an Expect header): the final one is what the test is about.
  while (/^HTTP\/1\.[01] 1\d\d /.test(data.subarray(0, 13).toString('latin1')) && data.indexOf('\r\n\r\n') !== -1) {
    data = data.subarray(data.indexOf('\r\n\r\n') + 4);
  }
  const end = data.indexOf('\r\n\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(data.subarray(0, 20).toString('latin1'));
  if (end === -1 || !m) return { status: null, headers: {}, body: data };
  const headers: Record<string, string> = {};
  for (const line of data.subarray(0, end).toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  const length = headers['content-length'];
  return { status: Number(m[1]), headers, body: length === undefined ? rest : rest.subarray(0, Number(length)) };
}
