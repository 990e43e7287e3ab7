/**
 * What a group said while the bot was not addressed: "@bot what do you think of the above?" has an
 * above. The messages of authorized users that the address rules skip are kept per channel (a
 * group, or a thread of one), in memory only, bounded (the last `maxMessages` of a channel, each
 * cut to `MAX_CHARS`, and `MAX_CHANNELS` channels, the least recently written to going first), and
 * handed to the model once, before the next message that addresses the bot there. Nothing of it is
 * stored apart from that message's turn; a restart forgets what was kept.
 */
import type { MessageEvent } from '@hermes/protocol';

/** a kept message is cut to this many characters */
export const GROUP_CONTEXT_MAX_CHARS = 500;
/** channels kept at most */
export const GROUP_CONTEXT_MAX_CHANNELS = 1_000;

interface Kept {
  who: string;
  text: string;
}

const channelOf = (event: MessageEvent): string => {
  const s = event.source;
  return `${s.platform}:${s.chatId}${s.threadId ? `:${s.threadId}` : ''}`;
};

export class GroupContext {
  readonly #channels = new Map<string, Kept[]>();
  constructor(
    private readonly maxMessages: number,
    private readonly maxChannels = GROUP_CONTEXT_MAX_CHANNELS,
  ) {}

  /** Keeps a group message the bot was not addressed in (a DM, an empty text or maxMessages 0: nothing). */
  record(event: MessageEvent): void {
    if (this.maxMessages <= 0 || event.source.chatType === 'dm') return;
    const text = event.text.trim();
    if (text === '') return;
    const key = channelOf(event);
    const kept = this.#channels.get(key) ?? [];
    this.#channels.delete(key);
    const cut = text.length > GROUP_CONTEXT_MAX_CHARS ? `${text.slice(0, GROUP_CONTEXT_MAX_CHARS)}…` : text;
    kept.push({ who: event.source.userName || event.source.userId, text: cut });
    if (kept.length > this.maxMessages) kept.splice(0, kept.length - this.maxMessages);
    this.#channels.set(key, kept);
    while (this.#channels.size > this.maxChannels) this.#channels.delete(this.#channels.keys().next().value as string);
  }

  /** The addressed message's text with what the channel said before it (once: the channel starts over). */
  withContext(event: MessageEvent, text: string): string {
    if (event.source.chatType === 'dm') return text;
    const key = channelOf(event);
    const kept = this.#channels.get(key);
    if (!kept || kept.length === 0) return text;
    this.#channels.delete(key);
    const lines = kept.map((k) => `${k.who}: ${k.text}`).join('\n');
    return `[Earlier in this group, not addressed to you:]\n${lines}\n[The message to you:]\n${text}`;
  }
}
