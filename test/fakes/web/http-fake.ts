// A minimal HTTP fake on 127.0.0.1 for the web provider fakes: records every request, routes to a handler.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  /** path without the query */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** the parsed JSON body, or undefined */
  body: unknown;
  rawBody: string;
}

export interface HttpFake {
  /** `http://127.0.0.1:PORT` (no trailing slash) */
  readonly url: string;
  readonly port: number;
  readonly requests: FakeRequest[];
  reset(): void;
  close(): Promise<void>;
}

export type FakeHandler = (req: FakeRequest, res: ServerResponse) => unknown;

/** Sends a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Sends a text answer with the given content type. */
export function sendText(res: ServerResponse, status: number, type: string, text: string | Buffer): void {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  res.writeHead(status, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startHttpFake(handler: FakeHandler, port = 0): Promise<HttpFake> {
  const requests: FakeRequest[] = [];
  const server = createServer((req, res) => {
    (async () => {
      const rawBody = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://fake');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined; // not JSON: rawBody keeps it
      }
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        rawBody,
      };
      requests.push(request);
      await handler(request, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `fake: ${err instanceof Error ? err.message : String(err)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    requests,
    reset: () => {
      requests.length = 0;
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
