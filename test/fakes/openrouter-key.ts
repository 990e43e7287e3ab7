// A fake of OpenRouter's key endpoint on 127.0.0.1: GET <base>/key answers the key's limits
// (`{data: {limit, usage, limit_remaining, rate_limit}}`), or a scripted status, or never answers.
// Every request is recorded with its Authorization header. Point OPENROUTER_BASE_URL at `url`.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface OpenRouterKeyData {
  limit: number | null;
  usage: number;
  limit_remaining: number | null;
  rate_limit?: { requests: number; interval: string };
  [field: string]: unknown;
}

export type KeyReply = { data: OpenRouterKeyData } | { status: number } | { hang: true };

export interface FakeOpenRouterKey {
  /** the API base URL (http://127.0.0.1:PORT/api/v1) */
  url: string;
  /** each request: method, path and Authorization header */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** what GET /key answers from now on */
  reply(reply: KeyReply): void;
  close(): Promise<void>;
}

export async function startFakeOpenRouterKey(): Promise<FakeOpenRouterKey> {
  const requests: FakeOpenRouterKey['requests'] = [];
  let reply: KeyReply = { status: 500 };
  const sockets = new Set<Socket>();
  const hung = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    if (req.method !== 'GET' || req.url !== '/api/v1/key') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"Not Found"}}');
      return;
    }
    if ('hang' in reply) {
      hung.add(res);
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end('{"error":{"message":"fake"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: reply.data }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    requests,
    reply(next) {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
