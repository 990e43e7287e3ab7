/**
 * The proxy every connection of the browser goes through (Chromium is launched with it, loopback
 * included): it vets the host of each connection with web_extract's SSRF gate (`vetHost`) and dials
 * exactly the address it vetted, as web_extract's fetch does. So a redirect, a request the page's
 * routing never saw, a WebSocket or a DNS answer that changed since the first check still cannot
 * reach a private, loopback or link-local address. Plain http is forwarded request by request;
 * https and WebSockets arrive as CONNECT tunnels. Listens on 127.0.0.1 only.
 */
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, HermesError, type Logger, silentLogger } from '@hermes/protocol';
import { type UrlPolicy, vetHost } from '../web/url-guard.js';

/** The header of the 403 a refused plain-http request gets: the reason, for the tool to report. */
export const REFUSED_HEADER = 'x-hermes-refused';

export interface VettingProxyOptions {
  policy: UrlPolicy;
  /** where a vetted address is dialled (tests map a pretend-public address onto 127.0.0.1); default: itself */
  dial?: (address: string) => string;
  logger?: Logger;
}

export interface VettingProxy {
  /** http://127.0.0.1:PORT, for Chromium's --proxy-server */
  readonly url: string;
  close(): Promise<void>;
}

/** Headers that speak to the proxy, not to the origin. */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'proxy-authenticate']);

/** `host:port` of a CONNECT line (IPv6 in brackets). */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(authority);
  if (!m?.[1] || !m[2]) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65_536 ? { host: m[1], port } : null;
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Starts the proxy on 127.0.0.1 (a free port). */
export async function startVettingProxy(options: VettingProxyOptions): Promise<VettingProxy> {
  const logger = options.logger ?? silentLogger;
  const dial = options.dial ?? ((address: string) => address);
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  /** The address to dial for `host`, or why it is refused. */
  const vetted = async (host: string): Promise<{ address: string } | { refused: string }> => {
    try {
      const [first] = await vetHost(host, options.policy);
      return { address: dial(first?.address ?? host) };
    } catch (err) {
      const reason = reasonOf(err);
      if (err instanceof HermesError && err.code === ERROR_CODES.WEB_URL_REFUSED)
        logger.info({ host }, `browser: connection refused: ${reason}`);
      return { refused: reason };
    }
  };

  const server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('the browser proxy forwards absolute http URLs only');
      return;
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    void vetted(host).then((v) => {
      if ('refused' in v) {
        res.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: encodeURIComponent(v.refused) });
        res.end(`Hermes refused this request: ${v.refused}`);
        return;
      }
      const headers: OutgoingHttpHeaders = {};
      for (const [k, value] of Object.entries(req.headers)) if (!HOP_HEADERS.has(k)) headers[k] = value;
      const upstream = httpRequest(
        {
          host: v.address,
          port: Number(target.port || 80),
          method: req.method,
          path: `${target.pathname}${target.search}`,
          headers,
          setHost: false,
          agent: false,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`cannot reach ${target.host}: ${reasonOf(err)}`);
      });
      req.pipe(upstream);
    });
  });

  /** A raw TCP tunnel to a vetted `host:port` (CONNECT; a WebSocket upgrade sent as plain http). */
  const tunnel = (client: Duplex, host: string, port: number, opening: (upstream: Socket) => void) => {
    track(client);
    client.on('error', () => client.destroy());
    void vetted(host).then((v) => {
      if ('refused' in v) {
        client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: ${encodeURIComponent(v.refused)}\r\n\r\n`);
        return;
      }
      const upstream = connect(port, v.address, () => {
        opening(upstream);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      track(upstream);
      upstream.on('error', () => {
        client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        upstream.destroy();
      });
      client.once('close', () => upstream.destroy());
    });
  };

  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const authority = splitAuthority(req.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    tunnel(client, authority.host, authority.port, (upstream) => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
    });
  });

  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    tunnel(client, host, Number(target.port || 80), (upstream) => {
      const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] ?? '';
        if (!HOP_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ''}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
    });
  });
  server.on('connection', track);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
