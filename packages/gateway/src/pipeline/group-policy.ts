/** One mention / free-response policy for every platform; adapters only supply the facts. */
import type { MessageEvent } from '@hermes/protocol';

/** Whether the bot should answer: always in DMs; in groups and threads when addressed or in a free-response chat. */
export function isAddressed(event: MessageEvent, freeResponseChats: readonly string[]): boolean {
  const s = event.source;
  if (s.chatType === 'dm') return true;
  if (s.mentioned || s.repliedToBot) return true;
  if (freeResponseChats.includes(`${s.platform}:${s.chatId}`)) return true;
  return false;
}
