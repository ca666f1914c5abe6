// Requests Node would answer (or drop) without the handler: an `Expect` other than 100-continue (a bare 417) and
// CONNECT (the connection closed without a word). Both are handed to the handler, which refuses them with JSON
// and logs them like every other request (proxy/http/requestHead.ts).
import { ServerResponse, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

export function handUnusualRequests(server: Server, handler: RequestListener): void {
  server.on('checkExpectation', handler);
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    // Node gives a CONNECT only its socket, since a tunnel would follow; the answer is written on it as usual.
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    socket.on('error', () => socket.destroy());
    res.on('finish', () => socket.end());
    handler(req, res);
  });
}
