/** Chats authorized users wrote from since start: send_message may address them. */
import type { MessageEvent } from '@hermes/protocol';

export const KNOWN_CHATS_MAX = 10_000;

export class KnownChats {
  readonly #chats = new Set<string>();

  remember(event: MessageEvent): void {
    if (this.#chats.size >= KNOWN_CHATS_MAX) this.#chats.clear();
    this.#chats.add(`${event.platform}:${event.source.chatId}`);
    if (event.source.threadId) this.#chats.add(`${event.platform}:${event.source.chatId}:${event.source.threadId}`);
  }

  has(platform: string, chatId: string, threadId?: string): boolean {
    return this.#chats.has(threadId ? `${platform}:${chatId}:${threadId}` : `${platform}:${chatId}`);
  }
}
