// A model endpoint in front of the fake OpenAI server: requests whose last user message names a raw
// case get those exact bytes back (truncated JSON, HTML, broken SSE, ...); everything else is
// forwarded to the fake unchanged, so scripted replies and streaming work as usual.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface RawReply {
  status: number;
  contentType: string;
  /** the body, or chunks written with a pause between them (an SSE stream) */
  body: string | Uint8Array | string[];
  /** destroy the socket after writing (a connection cut mid-answer) */
  cut?: boolean;
}

export interface RawModel {
  /** base URL for the daemon's model.base_url (`http://127.0.0.1:PORT/v1`) */
  url: string;
  /** the raw reply for the request whose text contains `marker` */
  set(marker: string, reply: RawReply): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The last user message of a chat request body (where the suite puts its case markers). */
function lastUserText(raw: Buffer): string {
  try {
    const body = JSON.parse(raw.toString('utf8')) as { messages?: { role?: unknown; content?: unknown }[] };
    const users = (body.messages ?? []).filter((m) => m.role === 'user');
    const last = users.at(-1)?.content;
    return typeof last === 'string' ? last : '';
  } catch {
    return '';
  }
}

export async function startRawModel(forwardTo: string): Promise<RawModel> {
  const replies = new Map<string, RawReply>();
  const target = new URL(forwardTo.endsWith('/') ? forwardTo : `${forwardTo}/`);

  async function answerRaw(res: ServerResponse, reply: RawReply): Promise<void> {
    res.writeHead(reply.status, { 'content-type': reply.contentType });
    if (Array.isArray(reply.body)) {
      for (const piece of reply.body) {
        res.write(piece);
        await new Promise((r) => setTimeout(r, 2));
      }
    } else {
      res.write(reply.body);
    }
    if (reply.cut) res.socket?.destroy();
    else res.end();
  }

  async function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const path = (req.url ?? '/').replace(/^\/v1\/?/, '');
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(key)) headers[key] = value;
    }
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const upstream = await fetch(new URL(path, target), {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
      signal: controller.signal,
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, key) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(key)) out[key] = value;
    });
    res.writeHead(upstream.status, out);
    if (upstream.body === null) {
      res.end();
      return;
    }
    Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream).pipe(res);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const text = lastUserText(body);
      const marker = [...replies.keys()].find((m) => text.includes(m));
      if (marker !== undefined) await answerRaw(res, replies.get(marker) as RawReply);
      else await forward(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    set: (marker, reply) => {
      replies.set(marker, reply);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
