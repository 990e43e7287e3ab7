// Raw HTTP/1.1 over a TCP socket, for what fetch cannot do: send headers that promise a body and
// never send it (or send it slowly), send any Host header, hold connections open.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Opens a TCP connection to the server of `url` (127.0.0.1 only). */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`raw-http: only 127.0.0.1 is a target, got ${hostname}`);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The request head (request line, headers, blank line). */
export function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function parse(text: string): RawResponse | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = Number(headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(length) && Buffer.byteLength(body) < length) return null;
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/**
 * Resolves with the first response on `socket` once it is complete (by content-length, or when the
 * server closes); resolves null when the server closed without answering.
 */
export function readResponse(socket: Socket): Promise<RawResponse | null> {
  return new Promise((resolve) => {
    let text = '';
    const done = (value: RawResponse | null) => {
      socket.removeAllListeners('data');
      resolve(value);
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const parsed = parse(text);
      if (parsed !== null && parsed.headers['content-length'] !== undefined) done(parsed);
    });
    socket.once('close', () =>
      done(text === '' ? null : (parse(text) ?? { status: Number(text.split(' ')[1]), headers: {}, body: text })),
    );
    socket.on('error', () => {});
  });
}

/** Resolves once the server closed the connection. */
export function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once('close', () => resolve());
    socket.on('error', () => {});
    // a paused socket never sees the server's end: keep reading (whatever the server answers)
    socket.resume();
  });
}

/** Sends a whole request and reads its response (the connection is closed afterwards). */
export async function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body = '',
): Promise<RawResponse | null> {
  const socket = await openSocket(url);
  const response = readResponse(socket);
  socket.write(head(method, path, { ...headers, 'content-length': Buffer.byteLength(body) }) + body);
  const result = await response;
  socket.destroy();
  return result;
}
