// An in-memory platform adapter for pipeline tests: events are injected, sends are recorded.
import type {
  Attachment,
  InboundSink,
  MessageEvent,
  OutboundMessage,
  PlatformAdapter,
  PlatformFactory,
  PlatformState,
  SendResult,
  SessionSource,
} from '@hermes/protocol';

export interface MemoryPlatform {
  factory: PlatformFactory;
  sent: OutboundMessage[];
  /** every send() call, failed ones included */
  tries: OutboundMessage[];
  typing: number;
  /** results to return before succeeding (e.g. a 429) */
  failures: SendResult[];
  /** delivers an inbound event as the adapter would; resolves when accepted */
  inject(text: string, source?: Partial<SessionSource>, messageId?: string): Promise<void>;
  /** delivers a message with files (already in the cache) as a 'media' event */
  injectFiles(text: string, attachments: Attachment[]): Promise<void>;
}

let counter = 0;

/** Builds a memory platform named `name` with a max message length of `limit`. */
export function memoryPlatform(name = 'memory', limit = 500): MemoryPlatform {
  let sink: InboundSink | null = null;
  let state: PlatformState = { state: 'disconnected', since: Date.now() };
  const platform: MemoryPlatform = {
    sent: [],
    tries: [],
    typing: 0,
    failures: [],
    async inject(text, source = {}, messageId) {
      if (!sink) throw new Error('platform not started');
      const event: MessageEvent = {
        kind: 'text',
        platform: name,
        messageId: messageId ?? `m${++counter}`,
        text,
        source: { platform: name, chatId: 'c1', chatType: 'dm', userId: 'u1', userName: 'Ada', ...source },
        internal: false,
        receivedAt: Date.now(),
        raw: { text },
      };
      await sink.accept(event);
    },
    async injectFiles(text, attachments) {
      if (!sink) throw new Error('platform not started');
      await sink.accept({
        kind: 'media',
        platform: name,
        messageId: `m${++counter}`,
        text,
        attachments,
        source: { platform: name, chatId: 'c1', chatType: 'dm', userId: 'u1', userName: 'Ada' },
        internal: false,
        receivedAt: Date.now(),
        raw: { text },
      });
    },
    factory: {
      name,
      hasCredentials: () => true,
      create: (): PlatformAdapter => ({
        name,
        capabilities: { maxMessageLength: limit, formatting: 'plain', editing: false, typing: true, threads: true },
        async start(s) {
          sink = s;
          state = { state: 'connected', since: Date.now() };
        },
        async stop() {
          sink = null;
          state = { state: 'stopped', since: Date.now() };
        },
        async send(message) {
          platform.tries.push(message);
          const failure = platform.failures.shift();
          if (failure) return failure;
          platform.sent.push(message);
          return { ok: true, messageIds: [String(platform.sent.length)] };
        },
        async sendTyping() {
          platform.typing++;
        },
        format: (markdown) => markdown,
        status: () => state,
      }),
    },
  };
  return platform;
}
