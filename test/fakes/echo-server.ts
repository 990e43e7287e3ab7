// A fake of Echo, the tiny chat service of the example platform plugin
// (docs/platforms/examples/echo-platform), on 127.0.0.1: GET /me, long-polled GET /updates?offset=N,
// POST /messages with scripted 429s, bearer-token auth on every call.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface EchoUpdate {
  id: number;
  chat: { id: string; type: 'dm' | 'group' };
  from: { id: string; name: string };
  text: string;
  mentions_bot?: boolean;
}

export interface EchoSent {
  id: number;
  chat: string;
  text: string;
}

export interface FakeEcho {
  /** the API base URL, http://127.0.0.1:PORT */
  url: string;
  /** messages the bot sent, in order */
  sent: EchoSent[];
  /** adds a message from a user; a long poll waiting for it answers at once */
  push(input: Omit<EchoUpdate, 'id'>): EchoUpdate;
  /** hands an already-delivered update to the next poll again, under its own id (as after a lost answer) */
  redeliver(update: EchoUpdate): void;
  /** the next POST /messages answers 429 with this retry_after_ms */
  rateLimitNextSend(retryAfterMs: number): void;
  /** long polls received so far */
  polls(): number;
  /** long polls held open right now */
  pendingPolls(): number;
  /** destroys every held long poll's connection (the adapter sees a network error) */
  dropConnections(): void;
  /** forgets every update, sent message and scripted failure (ids keep counting up) */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the fake; `token` is the one bearer token it accepts. */
export async function startFakeEcho(options: { token: string; longPollMs?: number }): Promise<FakeEcho> {
  const longPollMs = options.longPollMs ?? 200;
  const updates: EchoUpdate[] = [];
  const sent: EchoSent[] = [];
  const held = new Set<{ offset: number; res: ServerResponse; socket: Socket; timer: NodeJS.Timeout }>();
  const sockets = new Set<Socket>();
  let rateLimits: number[] = [];
  let polls = 0;
  let nextId = 1;

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  let replays: EchoUpdate[] = [];
  /** what a poll from `offset` gets: replays first (served once), then every update from the offset on */
  const pending = (offset: number): EchoUpdate[] => {
    const ready = [...replays, ...updates.filter((u) => u.id >= offset)];
    replays = [];
    return ready;
  };
  const wake = (): void => {
    for (const poll of [...held]) {
      if (replays.length === 0 && !updates.some((u) => u.id >= poll.offset)) continue;
      const ready = pending(poll.offset);
      held.delete(poll);
      clearTimeout(poll.timer);
      json(poll.res, 200, { updates: ready });
    }
  };
  const body = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.headers.authorization !== `Bearer ${options.token}`) return json(res, 401, { error: 'bad token' });
    if (req.method === 'GET' && url.pathname === '/me') return json(res, 200, { id: 'bot', name: 'echo-bot' });
    if (req.method === 'GET' && url.pathname === '/updates') {
      polls += 1;
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const ready = pending(offset);
      if (ready.length > 0) return json(res, 200, { updates: ready });
      const poll = { offset, res, socket: req.socket, timer: setTimeout(() => {}, 0) };
      poll.timer = setTimeout(() => {
        held.delete(poll);
        json(res, 200, { updates: [] });
      }, longPollMs);
      held.add(poll);
      res.on('close', () => {
        clearTimeout(poll.timer);
        held.delete(poll);
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const message = await body(req);
      const retryAfter = rateLimits.shift();
      if (retryAfter !== undefined) return json(res, 429, { error: 'slow down', retry_after_ms: retryAfter });
      if (typeof message.chat !== 'string' || typeof message.text !== 'string') {
        return json(res, 400, { error: 'chat and text must be strings' });
      }
      const record = { id: nextId++, chat: message.chat, text: message.text };
      sent.push(record);
      return json(res, 200, { id: record.id });
    }
    json(res, 404, { error: `no ${req.method} ${url.pathname}` });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    push(input) {
      const update = { ...input, id: nextId++ };
      updates.push(update);
      wake();
      return update;
    },
    redeliver(update) {
      // the service hands it out once more, whatever offset the next poll asks from
      replays.push(update);
      wake();
    },
    rateLimitNextSend(retryAfterMs) {
      rateLimits.push(retryAfterMs);
    },
    polls: () => polls,
    pendingPolls: () => held.size,
    dropConnections() {
      for (const poll of [...held]) {
        held.delete(poll);
        clearTimeout(poll.timer);
        poll.socket.destroy();
      }
    },
    reset() {
      updates.length = 0;
      replays = [];
      sent.length = 0;
      rateLimits = [];
    },
    async close() {
      for (const poll of held) clearTimeout(poll.timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
