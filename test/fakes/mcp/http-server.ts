// The fake MCP server over streamable HTTP on 127.0.0.1 (stateless: one McpServer per POST), with the same
// tools as the stdio script. `crash` (the tool, or the method) closes the listener and every open
// connection; `restart()` listens again on the same port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createFakeMcpServer } from './tools.mjs';

export interface FakeMcpHttp {
  /** the MCP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  /** the Authorization header of every request received */
  authHeaders: (string | undefined)[];
  crash(): void;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface FakeMcpHttpOptions {
  /** when set, requests without `Authorization: Bearer <token>` get 401 */
  token?: string;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

export async function startFakeMcpHttp(options: FakeMcpHttpOptions = {}): Promise<FakeMcpHttp> {
  const authHeaders: (string | undefined)[] = [];
  let server: Server;
  let port = 0;
  const crash = () => {
    server.close();
    server.closeAllConnections();
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    authHeaders.push(req.headers.authorization);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const mcp = createFakeMcpServer({ crash, name: 'fake-mcp-http' });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, await readBody(req));
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        handle(req, res).catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authHeaders,
    crash,
    restart: listen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        if (!server.listening) resolve();
      }),
  };
}
