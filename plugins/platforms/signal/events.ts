/**
 * The event stream, the one owner of reconnection: `GET /api/v1/events` (Server-Sent Events, parsed
 * with eventsource-parser), each event read, its files fetched, then handed to the sink before the
 * next is read. When the stream fails or ends it is opened again after backoffDelayMs (status
 * `error` meanwhile, `connected` once it is open again), with the last event id in
 * `Last-Event-ID` so a daemon that kept the events replays what was missed; the inbox's dedupe
 * key (author + timestamp) drops any event delivered twice.
 */
import { type AttachmentFetcher, backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type BotIdentity, type PendingSignalFile, readEnvelope } from './envelope.js';

export const LAST_EVENT_KEY = 'last_event_id';

export interface EventLoopDeps {
  httpUrl: string;
  account: string;
  sink: InboundSink;
  logger: Logger;
  status: StatusTracker;
  attachments: AttachmentFetcher<PendingSignalFile>;
  state: { get(key: string): string | undefined; set(key: string, value: string): void };
  /** who the bot is (asked once the daemon answers) */
  identity: (signal: AbortSignal) => Promise<BotIdentity>;
  allowlisted: (uuid: string) => boolean;
  /** remembers a chat's newest message (typing is shown only where someone wrote) */
  onMessage?: (chatId: string) => void;
  describe: (error: unknown) => string;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
}

/** Reads one SSE event and hands its message over; resolves once accepted (or skipped). */
async function handle(message: EventSourceMessage, bot: BotIdentity, deps: EventLoopDeps): Promise<void> {
  if (message.event !== undefined && message.event !== 'receive') {
    deps.logger.debug({ event: message.event }, `signal: event "${message.event}" skipped`);
    return;
  }
  const inbound = readEnvelope(message.data, bot, deps.now(), deps.allowlisted);
  if (inbound.kind === 'skip') {
    const fields = message.id === undefined ? {} : { eventId: message.id };
    if (inbound.routine) deps.logger.debug(fields, `signal: skipped ${inbound.reason}`);
    else deps.logger.info(fields, `signal: skipped ${inbound.reason}`);
    return;
  }
  const { event, files } = inbound;
  const fetched = await deps.attachments.fetchAll(
    files,
    deps.signal,
    (file) => ({ messageId: event.messageId, attachmentId: file.id }),
    event.source.userId, // a stranger's files are not stored
  );
  if (!fetched) throw new Error(`signal: stopped before message ${event.messageId} was delivered`);
  const state = message.id === undefined ? undefined : { [LAST_EVENT_KEY]: message.id };
  await deps.sink.accept(event, state === undefined ? undefined : { state });
  deps.onMessage?.(event.source.chatId);
}

/** Opens the stream once and reads it until it ends; throws when it cannot be opened or fails. */
async function readStream(bot: BotIdentity, deps: EventLoopDeps, connected: () => void): Promise<void> {
  const lastId = deps.state.get(LAST_EVENT_KEY);
  const url = `${deps.httpUrl}/api/v1/events?account=${encodeURIComponent(deps.account)}`;
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...(lastId === undefined ? {} : { 'last-event-id': lastId }) },
    signal: deps.signal,
  });
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new Error(`GET /api/v1/events answered HTTP ${response.status}`);
  }
  connected();
  const queue: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    onError: (error) => deps.logger.warn({ error: error.message }, 'signal: a malformed event line was skipped'),
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (deps.signal.aborted) return;
      await handle(next, bot, deps);
      if (next.id !== undefined) deps.state.set(LAST_EVENT_KEY, next.id);
    }
  }
  throw new Error('the event stream ended');
}

/** Runs until the signal aborts: connects, reads, reconnects with backoff. */
export async function runEventLoop(deps: EventLoopDeps): Promise<void> {
  const { signal, status } = deps;
  let failures = 0;
  let bot: BotIdentity | undefined;
  while (!signal.aborted) {
    try {
      bot ??= await deps.identity(signal);
      await readStream(bot, deps, () => {
        failures = 0;
        status.set('connected');
      });
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      status.set('error', deps.describe(error));
      await deps.sleep(backoffDelayMs(failures, deps.random), signal);
    }
  }
}
