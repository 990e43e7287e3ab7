/**
 * What the user sees while a turn runs: the typing indicator (after a short delay; with streaming,
 * while no text streams: while tools run), reactions on the user's message (display.reactions:
 * 👀 at the start, ✅ answered, ❌ failed) and the streamed answer (display.streaming). All of it is
 * best effort: a failure is logged and never fails the turn.
 */
import type { Logger, MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { type EditCadence, LiveStream } from '../delivery/live-stream.js';

export const TYPING_INTERVAL_MS = 4_000;
/** a turn still running after this long shows the typing indicator */
export const TYPING_DELAY_MS = 300;

export const REACTION_WORKING = '👀';
export const REACTION_ANSWERED = '✅';
export const REACTION_FAILED = '❌';

/**
 * display.* as it applies to one platform (`gateway.platforms.<name>.streaming` overrides
 * `display.streaming`, `.runtime_metadata_footer` overrides `display.runtime_metadata_footer`).
 */
export interface DisplaySettings {
  streaming: boolean;
  streamIntervalMs: number;
  reactions: boolean;
  toolProgress: boolean;
  /** a last line on answers: model, tokens in and out, duration (turn/runtime-footer.ts) */
  runtimeFooter: boolean;
}

export const DISPLAY_DEFAULTS: DisplaySettings = {
  streaming: false,
  streamIntervalMs: 1_000,
  reactions: false,
  toolProgress: false,
  runtimeFooter: false,
};

export interface TurnDisplayOptions {
  adapter: PlatformAdapter | undefined;
  event: MessageEvent;
  display: DisplaySettings;
  /** where the stream's first message replies (groups) */
  replyToMessageId?: string;
  /** the messages an earlier try at this answer streamed into (a restart in mid-stream) */
  existingIds: readonly string[];
  cadence: EditCadence;
  remember(ids: readonly string[]): Promise<void>;
  redact(text: string): string;
  logger: Logger;
  now(): number;
  /** an answer still possibly this marker is not streamed (`[SILENT]`) */
  holdBack?: string;
}

export class TurnDisplay {
  readonly #o: TurnDisplayOptions;
  readonly stream: LiveStream | null;
  #typingDelay: NodeJS.Timeout | null = null;
  #typing: NodeJS.Timeout | null = null;
  #reactions: Promise<void> = Promise.resolve();
  #reacted = false;

  constructor(options: TurnDisplayOptions) {
    this.#o = options;
    const { adapter, display, event } = options;
    this.stream =
      display.streaming && adapter?.edit && adapter.capabilities.editing
        ? new LiveStream({
            adapter,
            chatId: event.source.chatId,
            ...(event.source.threadId ? { threadId: event.source.threadId } : {}),
            ...(options.replyToMessageId ? { replyToMessageId: options.replyToMessageId } : {}),
            intervalMs: display.streamIntervalMs,
            cadence: options.cadence,
            existingIds: options.existingIds,
            remember: options.remember,
            redact: options.redact,
            logger: options.logger,
            now: options.now,
            toolProgress: display.toolProgress,
            ...(options.holdBack === undefined ? {} : { holdBack: options.holdBack }),
            // the index first: a platform that keeps only 25 characters keeps it
            sendKey: (index) => `s${index}.${event.messageId.slice(event.messageId.lastIndexOf(':') + 1)}`.slice(0, 25),
          })
        : null;
  }

  /** the turn starts: 👀, and the typing indicator unless the turn is over quickly */
  start(): void {
    if (this.#o.display.reactions) this.#react(REACTION_WORKING);
    this.#startTyping(TYPING_DELAY_MS);
  }

  /** the model's text so far is shown: the typing indicator stops (a streamed message is visible) */
  readonly onDelta = (text: string): void => {
    this.#stopTyping();
    this.stream?.delta(text);
  };

  /** a step asked for tools: typing while they run; a progress line when asked for */
  tools(names: readonly string[]): void {
    if (names.length === 0) return;
    this.stream?.tools(names);
    if (this.stream && !this.#typing && !this.#typingDelay) this.#startTyping(0);
  }

  /** the turn ended: stops typing and the stream's edits */
  async finish(): Promise<void> {
    this.#stopTyping();
    await this.stream?.finish();
  }

  /** ✅ or ❌ in place of 👀; resolves when the reactions were set (or failed) */
  settled(ok: boolean): Promise<void> {
    if (this.#o.display.reactions) this.#react(ok ? REACTION_ANSWERED : REACTION_FAILED);
    return this.#reactions;
  }

  /** the turn is over, however it ended: no timer is left behind */
  close(): void {
    this.#stopTyping();
    void this.stream?.finish();
  }

  #react(emoji: string): void {
    const { adapter, event } = this.#o;
    const react = adapter?.react;
    if (!react || !adapter.capabilities.reactions) return;
    const replaces = this.#reacted ? REACTION_WORKING : undefined;
    this.#reacted = true;
    const reaction = {
      chatId: event.source.chatId,
      messageId: event.messageId,
      emoji,
      ...(event.source.threadId ? { threadId: event.source.threadId } : {}),
      ...(replaces ? { replaces } : {}),
    };
    this.#reactions = this.#reactions
      .then(() => react.call(adapter, reaction))
      .then(
        (result) => {
          if (!result.ok)
            this.#o.logger.debug({ platform: adapter.name, emoji, error: result.message }, 'reaction refused');
        },
        (err: unknown) => this.#o.logger.debug({ err, platform: adapter.name, emoji }, 'reaction failed'),
      );
  }

  #startTyping(delayMs: number): void {
    const adapter = this.#o.adapter;
    if (!adapter?.sendTyping) return;
    const { chatId, threadId } = this.#o.event.source;
    const send = () => void adapter.sendTyping?.(chatId, threadId).catch(() => {});
    this.#typingDelay = setTimeout(() => {
      this.#typingDelay = null;
      send();
      this.#typing = setInterval(send, TYPING_INTERVAL_MS);
    }, delayMs);
  }

  #stopTyping(): void {
    if (this.#typingDelay) clearTimeout(this.#typingDelay);
    if (this.#typing) clearInterval(this.#typing);
    this.#typingDelay = null;
    this.#typing = null;
  }
}
