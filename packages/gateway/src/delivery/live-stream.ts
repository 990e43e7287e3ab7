/**
 * A streamed answer while the model writes it (display.streaming): one message sent at the first
 * tokens, then edited with the text so far, at most one edit per `intervalMs` in a chat; past the
 * platform's limit a new message continues. Edits are best effort: a 429 pauses them until its
 * retry-after, any other failure stops them; the final edit (deliver-streamed.ts) carries the whole
 * formatted answer and never depends on these. The ids of the messages sent are persisted (via
 * `remember`) before the next edit, so a restart edits them instead of posting a second answer.
 */
import type { Logger, PlatformAdapter } from '@hermes/protocol';
import { splitLimit } from './deliver.js';
import { splitMessage } from './split-message.js';

/** The last edit time per chat, shared by every stream of the gateway (one cadence per chat). */
export class EditCadence {
  readonly #last = new Map<string, number>();

  /** how long to wait before the next edit in `chat` */
  delay(chat: string, intervalMs: number, now: number): number {
    const last = this.#last.get(chat);
    return last === undefined ? 0 : Math.max(0, last + intervalMs - now);
  }

  mark(chat: string, now: number): void {
    this.#last.set(chat, now);
    // forget chats quiet for long: the map stays as small as the set of chats streaming now
    if (this.#last.size > 1_000) for (const [key, at] of this.#last) if (now - at > 60_000) this.#last.delete(key);
  }
}

export interface LiveStreamOptions {
  adapter: PlatformAdapter;
  chatId: string;
  threadId?: string;
  replyToMessageId?: string;
  intervalMs: number;
  cadence: EditCadence;
  /** message ids an earlier try at this answer sent (a restart in mid-stream): edited, not sent again */
  existingIds: readonly string[];
  /** persists the ids of the stream's messages (awaited before the stream goes on) */
  remember(ids: readonly string[]): Promise<void>;
  redact(text: string): string;
  logger: Logger;
  now(): number;
  /** tool-progress lines (display.tool_progress) shown above the text while tools run */
  toolProgress: boolean;
  /** an answer that may still turn out to be this (`[SILENT]`, never sent) is not shown yet */
  holdBack?: string;
  /**
   * the same for the i-th message of this answer on every try (the user's message id in it): a
   * platform that refuses a repeat (Discord's enforced nonce) returns the message an earlier try
   * posted but could not remember (killed while the send was under way), instead of a second one
   */
  sendKey?: (index: number) => string;
}

export class LiveStream {
  readonly #o: LiveStreamOptions;
  readonly #ids: string[];
  /** what each message shows now */
  readonly #shown: string[] = [];
  #text = '';
  #progress: string[] = [];
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #pausedUntil = 0;
  #stopped = false;
  #dirty = false;

  constructor(options: LiveStreamOptions) {
    this.#o = options;
    this.#ids = [...options.existingIds];
  }

  /** the ids of the messages this answer has on the platform so far */
  get ids(): readonly string[] {
    return this.#ids;
  }

  /** a text delta from the model */
  delta(text: string): void {
    this.#text += text;
    this.#schedule();
  }

  /** a model step asked for tools: its text (if any) was a preamble; the next step's text replaces it */
  tools(names: readonly string[]): void {
    if (this.#o.toolProgress && names.length > 0) this.#progress.push(`⚙️ ${names.join(', ')}`);
    this.#text = '';
    if (this.#o.toolProgress) this.#schedule();
  }

  /** stops editing and waits for the edit under way; the final delivery follows */
  async finish(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  #chatKey(): string {
    return `${this.#o.adapter.name}:${this.#o.chatId}`;
  }

  #schedule(): void {
    this.#dirty = true;
    if (this.#stopped || this.#timer || this.#running) return;
    const now = this.#o.now();
    // the first message goes out at the first tokens; edits keep to the chat's cadence
    const cadence = this.#ids.length === 0 ? 0 : this.#o.cadence.delay(this.#chatKey(), this.#o.intervalMs, now);
    const wait = Math.max(cadence, this.#pausedUntil - now);
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flush();
    }, wait);
    this.#timer.unref?.();
  }

  #flush(): void {
    if (this.#stopped || !this.#dirty) return;
    this.#dirty = false;
    this.#running = this.#update()
      .catch((err: unknown) => {
        this.#o.logger.warn(
          { err, platform: this.#o.adapter.name },
          'streamed answer: update failed; waiting for the final text',
        );
        this.#stopped = true;
      })
      .finally(() => {
        this.#running = null;
        if (this.#dirty) this.#schedule();
      });
  }

  /** The view now: progress lines and the text, redacted, in pieces that fit one message each. */
  #pieces(): string[] {
    const hold = this.#o.holdBack;
    if (hold !== undefined && this.#text.trim() !== '' && hold.startsWith(this.#text.trim())) return [];
    // a MEDIA: line (a file the final answer attaches) is never shown as text, not even mid-stream
    const text = this.#text.includes('MEDIA:') ? this.#text.replace(/^[ \t]*MEDIA:.*$/gm, '') : this.#text;
    const body = [...this.#progress, text].filter((part) => part.trim() !== '').join('\n\n');
    return splitMessage(this.#o.redact(body), splitLimit(this.#o.adapter)).filter((piece) => piece.trim() !== '');
  }

  async #update(): Promise<void> {
    const pieces = this.#pieces();
    const { adapter } = this.#o;
    for (const [i, piece] of pieces.entries()) {
      if (this.#shown[i] === piece) continue;
      const id = this.#ids[i];
      if (id === undefined) {
        const sent = await adapter.send({
          chatId: this.#o.chatId,
          text: piece,
          formatted: false,
          ...(this.#o.threadId ? { threadId: this.#o.threadId } : {}),
          ...(i === 0 && this.#o.replyToMessageId ? { replyToMessageId: this.#o.replyToMessageId } : {}),
          ...(this.#o.sendKey ? { idempotencyKey: this.#o.sendKey(i) } : {}),
        });
        if (!sent.ok) return this.#refused(sent);
        const newId = sent.messageIds[0];
        if (newId === undefined) throw new Error('the platform reported no message id');
        this.#ids.push(newId);
        await this.#o.remember(this.#ids);
      } else {
        if (!adapter.edit) throw new Error('the platform cannot edit messages');
        const edited = await adapter.edit({
          chatId: this.#o.chatId,
          messageId: id,
          text: piece,
          formatted: false,
          ...(this.#o.threadId ? { threadId: this.#o.threadId } : {}),
        });
        this.#o.cadence.mark(this.#chatKey(), this.#o.now());
        if (!edited.ok) return this.#refused(edited);
      }
      this.#shown[i] = piece;
    }
  }

  /** a 429 pauses the stream until its retry-after (the next update carries the newest text); anything else stops it */
  #refused(result: { error: string; message: string; retryAfterMs?: number }): void {
    if (result.error !== 'rate_limited') throw new Error(`${result.error}: ${result.message}`);
    this.#pausedUntil = this.#o.now() + (result.retryAfterMs ?? 1_000);
    this.#dirty = true;
  }
}
