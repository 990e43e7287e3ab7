/**
 * The events a limited timeline left out: when more happened in a room since the last sync than
 * the filter's timeline limit, the server sends the newest events with `limited: true` and a
 * `prev_batch` token; the ones before are paged backwards with `GET /rooms/{id}/messages`
 * (`dir=b`, `to` the sync token the batch started from), at most GAP_MAX_EVENTS, and read first,
 * oldest first. A server that does not answer throws (the batch is read again); one that refuses
 * is logged and the gap stays.
 */
import type { Logger } from '@hermes/protocol';
import { apiPath, isRecord, MatrixApiError, type MatrixClient } from './client.js';

export const GAP_MAX_EVENTS = 1_000;
const PAGE = 100;

export async function missedEvents(
  roomId: string,
  timeline: Record<string, unknown>,
  since: string,
  deps: { client: MatrixClient; logger: Logger; signal: AbortSignal },
): Promise<unknown[]> {
  let from = typeof timeline.prev_batch === 'string' && timeline.prev_batch !== '' ? timeline.prev_batch : undefined;
  if (from === undefined) {
    deps.logger.warn(
      { roomId },
      'matrix: the server left out earlier events of this room and gave no token to fetch them',
    );
    return [];
  }
  const newestFirst: unknown[] = [];
  while (from !== undefined && newestFirst.length < GAP_MAX_EVENTS) {
    let page: unknown;
    try {
      page = await deps.client.request('GET', apiPath('/_matrix/client/v3/rooms/{}/messages', roomId), {
        query: { from, to: since, dir: 'b', limit: String(PAGE) },
        signal: deps.signal,
      });
    } catch (error) {
      if (!(error instanceof MatrixApiError) || error.status === null) throw error;
      deps.logger.warn(
        { roomId, error: error.message },
        'matrix: the events a limited timeline left out could not be fetched',
      );
      break;
    }
    const chunk = isRecord(page) && Array.isArray(page.chunk) ? page.chunk : [];
    newestFirst.push(...chunk);
    const end = isRecord(page) && typeof page.end === 'string' && page.end !== '' ? page.end : undefined;
    from = chunk.length === 0 || end === from ? undefined : end;
  }
  if (newestFirst.length >= GAP_MAX_EVENTS) {
    deps.logger.warn(
      { roomId, fetched: GAP_MAX_EVENTS },
      'matrix: more events were left out than are fetched; the oldest are not read',
    );
  }
  deps.logger.info(
    { roomId, events: newestFirst.length },
    'matrix: a limited timeline: the events it left out were fetched',
  );
  return newestFirst.slice(0, GAP_MAX_EVENTS).reverse();
}
