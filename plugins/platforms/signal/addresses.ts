/**
 * How Signal chats and messages are named in the gateway. A direct chat is the other person's
 * number (their UUID when Signal does not share the number); a group is `group:<groupId>` (the
 * base64 id signal-cli uses). A message is `<timestamp>:<author>`: Signal names a message by its
 * author and its sent timestamp, which is also what a reaction or a quote points at.
 */

const GROUP_PREFIX = 'group:';

/** The chat id of a group. */
export const groupChatId = (groupId: string): string => `${GROUP_PREFIX}${groupId}`;

/** Where a chat id sends: `{ groupId }` for a group, else `{ recipient: [id] }`. */
export function chatTarget(chatId: string): { groupId: string } | { recipient: string[] } {
  return chatId.startsWith(GROUP_PREFIX) ? { groupId: chatId.slice(GROUP_PREFIX.length) } : { recipient: [chatId] };
}

/** The message id of the message `author` sent at `timestamp`. */
export const messageIdOf = (timestamp: number, author: string): string => `${timestamp}:${author}`;

/** The timestamp and author of a message id; undefined when it is not one of ours. */
export function parseMessageId(messageId: string): { timestamp: number; author: string } | undefined {
  const at = messageId.indexOf(':');
  const timestamp = Number(messageId.slice(0, at));
  const author = messageId.slice(at + 1);
  if (at <= 0 || !Number.isSafeInteger(timestamp) || author === '') return undefined;
  return { timestamp, author };
}
