// A Server-Sent Events client for tests: node:http (close() destroys the socket, as a browser
// leaving the page does), the events parsed as they come.
import { type ClientRequest, get, type IncomingMessage } from 'node:http';
import { waitFor } from './wait-for.js';

/** One SSE event as read off the stream. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads an SSE stream (node:http, whose close() destroys the socket as a leaving browser does);
 * `next(n)` resolves with the first n events.
 */
export function readSse(url: string, headers: Record<string, string>) {
  const events: SseEvent[] = [];
  let buffer = '';
  let request: ClientRequest | undefined;
  const take = (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { event: 'message', data: '' };
      let hasData = false;
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) {
          event.data = line.slice(6);
          hasData = true;
        }
      }
      if (hasData) events.push(event);
      end = buffer.indexOf('\n\n');
    }
  };
  let ended = false;
  const opened = new Promise<IncomingMessage>((resolve, reject) => {
    request = get(url, { headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', take);
      res.on('end', () => {
        ended = true;
      });
      res.on('error', () => undefined);
      resolve(res);
    });
    request.on('error', reject);
  });
  return {
    opened,
    events,
    ended: () => ended,
    async next(count: number, timeoutMs?: number): Promise<SseEvent[]> {
      await waitFor(() => events.length >= count, { what: `${count} events (${events.length} came)`, timeoutMs });
      return events.slice(0, count);
    },
    close: () => {
      opened.catch(() => undefined);
      request?.destroy();
    },
  };
}
