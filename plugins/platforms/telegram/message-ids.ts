/** Message ids as the gateway sees them: `<chat id>:<message id>`, unique across chats. */

/** Joins a chat id and a Telegram message id into the gateway's message id. */
export function toMessageId(chatId: number | string, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/** The Telegram message id inside a gateway message id (or a bare number); undefined when there is none. */
export function telegramMessageId(id: string): number | undefined {
  const tail = id.slice(id.lastIndexOf(':') + 1);
  return /^\d+$/.test(tail) ? Number(tail) : undefined;
}

/** A thread id as Telegram's message_thread_id; undefined when absent or not a number. */
export function telegramThreadId(threadId: string | undefined): number | undefined {
  return threadId !== undefined && /^\d+$/.test(threadId) ? Number(threadId) : undefined;
}
