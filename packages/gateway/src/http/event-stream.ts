/** An API answer as Server-Sent Events: Fastify steps aside and the raw response gets the stream's headers. */
import type { FastifyReply } from 'fastify';

/** Hijacks the reply and writes the 200 with the event-stream headers (and those the request guard set: CORS). */
export function startEventStream(reply: FastifyReply): void {
  reply.hijack();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}
