/**
 * Who gets a connection when the server is full (`gateway.max_connections`): a new connection is
 * never refused while a connection that is not serving a whole request can make room. At the cap,
 * the oldest connection that is idle (kept alive between requests), still sending its headers, or
 * still sending its body is closed and the new one admitted; only when every connection serves a
 * received request (a turn, an SSE stream: those have limits of their own) is the new one closed.
 * So slow or idle clients cannot starve `/health`, webhooks and keyed API calls: each new
 * connection pushes the oldest slow one out.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Tracked {
  socket: Socket;
  /** the request being served on it, if any */
  request: IncomingMessage | null;
}

export interface AdmissionStats {
  /** connections closed to make room for a new one */
  evicted: number;
  /** new connections closed because none could make room */
  refused: number;
}

export function admitConnections(server: Server, max: number): AdmissionStats {
  // insertion order is connection age: the first evictable entry is the oldest
  const open = new Map<Socket, Tracked>();
  const stats: AdmissionStats = { evicted: 0, refused: 0 };
  const serving = (t: Tracked) => t.request?.complete === true;
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      let victim: Tracked | undefined;
      for (const t of open.values()) {
        if (!serving(t)) {
          victim = t;
          break;
        }
      }
      if (victim === undefined) {
        stats.refused += 1;
        socket.destroy();
        return;
      }
      stats.evicted += 1;
      open.delete(victim.socket);
      victim.socket.destroy();
    }
    open.set(socket, { socket, request: null });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const tracked = open.get(request.socket);
    if (tracked === undefined) return;
    tracked.request = request;
    const done = () => {
      if (tracked.request === request) tracked.request = null;
    };
    response.once('finish', done);
    response.once('close', done);
  });
  return stats;
}
