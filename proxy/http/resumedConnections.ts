// A process stopped for a while (SIGSTOP, a paused VM, a long GC pause) wakes to expired timers and, on the same
// sockets, requests that arrived meanwhile. Timers run before the sockets are read in an event-loop turn, so the
// keep-alive timeout of an idle connection fires first, and Node destroys the socket with the unread request in
// it: the client gets a reset for a request it sent in good time. A 'timeout' listener on the server takes that
// decision from Node; it is made here one step later, once the turn has read what waited on the socket.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

type ServerSocket = Socket & { _httpMessage?: unknown };

export function spareResumedConnections(server: Server): void {
  server.on('timeout', (socket: ServerSocket) => {
    const read = socket.bytesRead;
    setImmediate(() => {
      // Nothing arrived and nothing is being answered: the connection was idle after all.
      if (socket.bytesRead === read && !socket._httpMessage) socket.destroy();
    });
  });
}
