/**
 * The open Server-Sent Events streams of each chat (a browser id) and the chat's recent events:
 * every bot message (`message`) and streamed update (`edit`) goes to every open stream of the chat
 * and is kept (the last `maxEvents` per chat, the last `maxChats` chats), so a browser that comes
 * back gets what it missed: after its `Last-Event-ID`, or, without one (a reload), what no stream
 * has seen yet.
 */
export type ChatEventName = 'message' | 'edit';

export interface ChatEventData {
  id: string;
  text: string;
}

interface KeptEvent {
  seq: number;
  event: ChatEventName;
  data: ChatEventData;
  delivered: boolean;
}

interface Listener {
  push(frame: string): void;
  end(): void;
}

interface Chat {
  events: KeptEvent[];
  listeners: Set<Listener>;
}

export interface ChatStreamsOptions {
  /** events kept per chat for a browser that comes back (default 200) */
  maxEvents?: number;
  /** chats kept; the least recently used beyond it is forgotten (default 1000) */
  maxChats?: number;
  /** a comment line this often keeps proxies from closing a quiet stream (default 25 s) */
  heartbeatMs?: number;
}

/** One SSE frame. */
export function sseFrame(seq: number, event: ChatEventName, data: ChatEventData): string {
  return `id: ${seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class ChatStreams {
  readonly #chats = new Map<string, Chat>();
  readonly #maxEvents: number;
  readonly #maxChats: number;
  readonly #heartbeatMs: number;
  // ids grow across restarts too (microseconds of the start), so an old Last-Event-ID never hides new events
  #seq = Date.now() * 1000;
  #closed = false;

  constructor(options: ChatStreamsOptions = {}) {
    this.#maxEvents = options.maxEvents ?? 200;
    this.#maxChats = options.maxChats ?? 1000;
    this.#heartbeatMs = options.heartbeatMs ?? 25_000;
  }

  #chat(chatId: string): Chat {
    let chat = this.#chats.get(chatId);
    if (chat === undefined) {
      chat = { events: [], listeners: new Set() };
    } else this.#chats.delete(chatId); // re-inserted last: most recently used
    this.#chats.set(chatId, chat);
    for (const [id, old] of this.#chats) {
      if (this.#chats.size <= this.#maxChats) break;
      if (old.listeners.size === 0) this.#chats.delete(id);
    }
    return chat;
  }

  /** Sends an event to the chat's open streams and keeps it for a later reconnect. */
  publish(chatId: string, event: ChatEventName, data: ChatEventData): void {
    const chat = this.#chat(chatId);
    const kept: KeptEvent = { seq: ++this.#seq, event, data, delivered: chat.listeners.size > 0 };
    chat.events.push(kept);
    if (chat.events.length > this.#maxEvents) chat.events.splice(0, chat.events.length - this.#maxEvents);
    const frame = sseFrame(kept.seq, event, data);
    for (const listener of chat.listeners) listener.push(frame);
  }

  /** Number of open streams of a chat. */
  openStreams(chatId: string): number {
    return this.#chats.get(chatId)?.listeners.size ?? 0;
  }

  /**
   * A stream of the chat's events until `signal` aborts or close(): first the missed ones (after
   * `lastEventId`, else those no stream has seen), then each new one.
   */
  async *open(chatId: string, lastEventId: number | undefined, signal: AbortSignal): AsyncGenerator<string> {
    const chat = this.#chat(chatId);
    const queue: string[] = ['retry: 2000\n\n'];
    for (const kept of chat.events) {
      if (lastEventId === undefined ? kept.delivered : kept.seq <= lastEventId) continue;
      kept.delivered = true;
      queue.push(sseFrame(kept.seq, kept.event, kept.data));
    }
    let wake: (() => void) | null = null;
    let ended = this.#closed;
    const listener: Listener = {
      push: (frame) => {
        queue.push(frame);
        wake?.();
      },
      end: () => {
        ended = true;
        wake?.();
      },
    };
    const onAbort = () => listener.end();
    signal.addEventListener('abort', onAbort, { once: true });
    chat.listeners.add(listener);
    try {
      while (!ended && !signal.aborted) {
        while (queue.length > 0) yield queue.shift() as string;
        if (ended || signal.aborted) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            queue.push(': ping\n\n');
            resolve();
          }, this.#heartbeatMs);
          timer.unref();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      chat.listeners.delete(listener);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends every open stream (the adapter's stop()); streams opened later end at once. */
  close(): void {
    this.#closed = true;
    for (const chat of this.#chats.values()) for (const listener of chat.listeners) listener.end();
  }

  /** Lets streams open again (a restarted adapter). */
  reopen(): void {
    this.#closed = false;
  }
}
